import AlbumStore
import ArgumentParser

struct CoversRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove an album's cover (undoable).",
        discussion: """
            The image stays in the file while the history can bring it back; `covers gc` removes \
            it once nothing can.

            Example: albumstore covers rm 42
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The album's id.", completion: LibraryCompletion.albumID) var id: Int64

    func run() throws {
        let info = try store.openLibrary(.readWrite).covers.remove(albumID: id)
        inform("Removed the cover of album \(id) (\(info.format.rawValue), \(info.byteCount) bytes). `albumstore undo` brings it back.")
    }
}
