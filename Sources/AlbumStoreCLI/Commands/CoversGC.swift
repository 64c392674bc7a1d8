import AlbumStore
import ArgumentParser

struct CoversGC: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract: "Delete images no album shows and no undo or redo can bring back.",
        discussion: "Example: albumstore covers gc")

    @OptionGroup var store: StoreOptions

    func run() throws {
        let report = try store.openLibrary(.readWrite).covers.collectGarbage()
        try StandardOutput.writeLine("Removed \(Counted(report.imagesRemoved, "image")), freed \(Counted(report.bytesFreed, "byte")).")
    }
}
