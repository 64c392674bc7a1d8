import AlbumStore
import ArgumentParser

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the albums in order.",
        discussion: "Examples: albumstore list    albumstore list --offset 100 --limit 20 --format csv")

    @OptionGroup var store: StoreOptions
    @Option(help: "Start at this 0-based index.") var offset = 0
    @Option(help: "Show at most this many albums.") var limit: Int?
    @OptionGroup var output: FormatOptions

    func validate() throws {
        guard offset >= 0 else { throw ValidationError("--offset must not be negative.") }
        guard (limit ?? 0) >= 0 else { throw ValidationError("--limit must not be negative.") }
    }

    func run() throws {
        let page = try store.openLibrary(.readOnly).albums.page(offset: offset, limit: limit ?? .max)
        try AlbumPrinter.print(page, as: output.format)
    }
}
