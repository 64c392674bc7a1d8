import AlbumStore
import ArgumentParser

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete an album by id or at an index (undoable).",
        discussion: "Examples: albumstore rm 42    albumstore rm --at 0")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The album's id.") var id: Int64?
    @Option(help: "Delete the album at this 0-based index instead.") var at: Int?

    func validate() throws {
        guard (id == nil) != (at == nil) else { throw ValidationError("Give an id or --at INDEX (exactly one).") }
    }

    func run() throws {
        let albums = try store.openLibrary(.readWrite).albums
        let removed = try id.map { try albums.delete(id: $0) } ?? albums.delete(at: at!)
        inform("Deleted \(removed.quoted). `albumstore undo` brings it back.")
    }
}
