import AlbumStore
import ArgumentParser

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the commands undo can go back through, oldest first (undone ones can be redone).",
        // Without a subcommand it lists (its own run()), so that `history --help` shows the
        // list's options; the usage says so rather than showing <subcommand> as required.
        usage: """
            albumstore history [--db <path>] [--format <format>] [--wide]
            albumstore history drop [--db <path>] [--all]
            """,
        discussion: """
            `albumstore history drop` forgets the newest command, for when its undo keeps failing \
            (see `albumstore history drop --help`).

            Examples:
              albumstore history --format json
              albumstore history drop

            \(TableLayout.help)
            """,
        subcommands: [HistoryDrop.self])

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOptions

    func run() throws {
        let entries = try store.openLibrary(.readOnly).historyEntries()
        try HistoryRecord.print(entries, as: output)
    }
}
