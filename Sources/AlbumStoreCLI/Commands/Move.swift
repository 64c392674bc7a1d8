import AlbumStore
import ArgumentParser

struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mv",
        abstract: "Move an album to another place in the list (undoable).",
        discussion: "Example: albumstore mv 42 --to 0   (makes album 42 the first)")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The album's id.") var id: Int64
    @Option(help: "The 0-based index the album ends up at.") var to: Int

    func run() throws {
        let album = try store.openLibrary(.readWrite).albums.move(id: id, to: to)
        inform("Moved \(album.quoted) to #\(to).")
    }
}
