import AlbumStore
import ArgumentParser

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an album at the end of the list, or at an index (undoable).",
        discussion: """
            Surrounding spaces are trimmed from every value. A negative --at counts from the end \
            of the list as it will be: -1 adds at the very end, -2 before the last album.

            Examples:
              albumstore add --title Low --artist 'David Bowie' --genre Rock --year 1977
              albumstore add --title Heroes --artist Bowie --at 0     # at the front
              albumstore add --title Lodger --artist Bowie --at -2    # before the last
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var fields: AddFields
    // .unconditional: `--at -1` is a value, not an option named `-1`.
    @Option(parsing: .unconditional,
            help: "Insert at this 0-based index (0 is the front; -1 the end, -2 before the last) instead of appending.")
    var at: Int?
    @OptionGroup var output: FormatOptions

    func run() throws {
        let library = try store.openLibrary(.create)
        let album = try at.map { try library.albums.insert(fields.draft, at: $0) } ?? library.albums.append(fields.draft)
        // Appended, it is known to be last: the count (a sum over the order statistics) gives its index.
        let index = try at.map { try $0 >= 0 ? $0 : library.albums.index(of: album.id) } ?? library.albums.count() - 1
        try AlbumPrinter.print([(index, album)], as: output)
    }
}
