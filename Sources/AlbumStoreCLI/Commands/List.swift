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
    /// Not an option of `list`, which shows the library's own order: read only to point at the
    /// command that sorts, where ArgumentParser would suggest an unrelated option.
    @Option(help: .private) var sort: String?

    /// - Throws: `ValidationError` (a usage error) for a negative --limit, or a --sort.
    func validate() throws {
        guard (limit ?? 0) >= 0 else { throw ValidationError("--limit must not be negative.") }
        if let sort {
            throw ValidationError(
                "list has no --sort: it shows the library's own order. `albumstore query --sort \(sort)` sorts every album "
                    + "(query takes --offset, --limit and --format too).")
        }
    }

    func run() throws {
        let albums = try store.openLibrary(.readOnly).albums
        // Counting from the end needs the count; a read-only race with a writer only shifts the window.
        let start = offset >= 0 ? offset : max(0, try albums.count() + offset)
        try AlbumPrinter.printList(of: albums, offset: start, limit: limit ?? .max, format: output.format, wide: output.wide)
    }
}
