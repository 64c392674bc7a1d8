import AlbumStore
import ArgumentParser

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the commands undo can go back through, oldest first (undone ones can be redone).",
        discussion: "Example: albumstore history --format json")

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOptions

    func run() throws {
        let entries = try store.openLibrary(.readOnly).historyEntries()
        try HistoryRecord.print(entries, as: output.format)
    }
}
