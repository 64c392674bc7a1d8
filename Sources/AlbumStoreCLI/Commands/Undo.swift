import AlbumStore
import ArgumentParser

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Undo the last command, also one made in an earlier session.",
        discussion: """
            An undo never overwrites a change made outside albumstore: when an album the command \
            changed has changed since (say in the sqlite3 shell), it fails and changes nothing. \
            `albumstore history drop` then forgets that command, so the ones before it can be undone.

            Example: albumstore rm 42 && albumstore undo
            """)

    @OptionGroup var store: StoreOptions
    /// Not an option: read only to answer it, where ArgumentParser would suggest --db.
    @Flag(help: .private) var all = false

    func validate() throws {
        if all {
            throw ValidationError(
                "undo has no --all: each undo takes back one command, the last one not yet undone. Run it once per "
                    + "command; `albumstore history` lists them.")
        }
    }

    func run() throws {
        let library = try store.openLibrary(.readWrite)
        let entry = try StuckHistoryError.advising(
            "`albumstore history drop` forgets this command so older ones can be undone") { try library.undo() }
        inform("Undid: \(entry.description). `albumstore redo` does it again.")
    }
}

struct Redo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Do the last undone command again.",
        discussion: "Example: albumstore undo && albumstore redo")

    @OptionGroup var store: StoreOptions

    func run() throws {
        let library = try store.openLibrary(.readWrite)
        let entry = try StuckHistoryError.advising(
            "`albumstore history drop --all` forgets the history, this command with it") { try library.redo() }
        inform("Redid: \(entry.description).")
    }
}
