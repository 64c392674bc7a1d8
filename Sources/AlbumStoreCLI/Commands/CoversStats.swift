import AlbumStore
import ArgumentParser

struct CoversStats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count the stored covers and their bytes.",
        discussion: "Example: albumstore covers stats")

    @OptionGroup var store: StoreOptions

    func run() throws {
        let stats = try store.openLibrary(.readOnly).covers.stats()
        for line in [
            "images: \(stats.imageCount)",
            "total bytes: \(stats.totalBytes)",
            "bytes saved by deduplication: \(stats.bytesSavedByDeduplication)",
            "albums with a cover: \(stats.albumsWithCover)",
            "albums without a cover: \(stats.albumsWithoutCover)",
        ] { try StandardOutput.writeLine(line) }
    }
}
