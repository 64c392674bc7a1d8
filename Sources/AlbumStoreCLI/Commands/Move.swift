import AlbumStore
import ArgumentParser

struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mv",
        abstract: "Move an album to another place in the list (undoable).",
        discussion: """
            A negative index counts from the end: -1 is the last place.

            Examples:
              albumstore mv 42 --to 0     # makes album 42 the first
              albumstore mv 42 --to -1    # makes it the last
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The album's id.", completion: LibraryCompletion.albumID) var id: Int64
    // .unconditional: `--to -1` is a value, not an option named `-1`.
    @Option(parsing: .unconditional, help: "The 0-based index the album ends up at (-1: the last).") var to: Int

    func run() throws {
        let albums = try store.openLibrary(.readWrite).albums
        let album = try albums.move(id: id, to: to)
        let index = to >= 0 ? to : try albums.index(of: album.id)
        inform("Moved \(album.quoted) to #\(index).")
    }
}
