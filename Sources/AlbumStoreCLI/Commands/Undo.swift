import AlbumStore
import ArgumentParser

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Undo the last command, also one made in an earlier session.",
        discussion: "Example: albumstore rm 42 && albumstore undo")

    @OptionGroup var store: StoreOptions

    func run() throws {
        let entry = try store.openLibrary(.readWrite).undo()
        inform("Undid: \(entry.description). `albumstore redo` does it again.")
    }
}

struct Redo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Do the last undone command again.",
        discussion: "Example: albumstore undo && albumstore redo")

    @OptionGroup var store: StoreOptions

    func run() throws {
        let entry = try store.openLibrary(.readWrite).redo()
        inform("Redid: \(entry.description).")
    }
}
