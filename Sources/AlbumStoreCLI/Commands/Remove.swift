import AlbumStore
import ArgumentParser

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete an album by id or at an index (undoable).",
        discussion: """
            A negative index counts from the end: --at -1 deletes the last album.

            Examples: albumstore rm 42    albumstore rm --at 0    albumstore rm --at -1
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The album's id.", completion: LibraryCompletion.albumID) var id: Int64?
    // .unconditional: `--at -1` is a value, not an option named `-1`.
    @Option(parsing: .unconditional, help: "Delete the album at this 0-based index instead (-1: the last).") var at: Int?

    func validate() throws {
        guard (id == nil) != (at == nil) else { throw ValidationError("Give an id or --at INDEX (exactly one).") }
    }

    func run() throws {
        let albums = try store.openLibrary(.readWrite).albums
        let removed: Album
        switch (id, at) {
        case let (id?, _): removed = try albums.delete(id: id)
        case let (nil, at?): removed = try albums.delete(at: at)
        case (nil, nil): throw ValidationError("Give an id or --at INDEX (exactly one).")   // validate() rules it out
        }
        inform("Deleted \(removed.quoted). `albumstore undo` brings it back.")
    }
}
