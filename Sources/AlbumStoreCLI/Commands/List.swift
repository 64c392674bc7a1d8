import AlbumStore
import ArgumentParser

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the albums in order.",
        discussion: """
            A negative --offset counts from the end, as in Python: --offset -10 lists the last 10 \
            albums (all of them when there are fewer).

            Examples: albumstore list    albumstore list --offset 100 --limit 20 --format csv    \
            albumstore list --offset -1

            \(TableLayout.help)
            """)

    @OptionGroup var store: StoreOptions
    // .unconditional: `--offset -1` is a value, not an option named `-1`.
    @Option(parsing: .unconditional, help: "Start at this 0-based index (-1: the last album).") var offset = 0
    @Option(parsing: .unconditional, help: "Show at most this many albums.") var limit: Int?
    @OptionGroup var output: FormatOptions

    /// What the line asks, as plain values.
    var request: ListRequest {
        ListRequest(db: store.db, verbose: store.verbose, offset: offset, limit: limit, format: output.format, wide: output.wide)
    }

    func validate() throws { try request.validate() }

    func run() throws { try request.run() }
}
