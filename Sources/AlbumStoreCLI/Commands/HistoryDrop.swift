import AlbumStore
import ArgumentParser

struct HistoryDrop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drop",
        abstract: "Forget the command undo would undo next, without undoing it (cannot be undone).",
        discussion: """
            The way out of a stuck undo: once an album a command changed is changed outside \
            albumstore (say in the sqlite3 shell), undoing that command fails every time with \
            "the row changed since", and the commands before it cannot be reached. Dropping it \
            leaves the albums as they are and makes the command before it the next to undo. \
            Undone commands (what redo would do) are kept. With --all, every command is \
            forgotten, undone ones too. Dropping is not a command itself: it cannot be undone.

            Examples:
              albumstore history drop && albumstore undo   # undo the command before it
              albumstore history drop --all                # forget everything
            """)

    @OptionGroup var store: StoreOptions
    @Flag(help: "Forget every command, done and undone.") var all = false

    func run() throws {
        let library = try store.openLibrary(.readWrite)
        if all {
            let count = try library.dropHistory()
            return inform("Forgot \(Counted(count, "command")): nothing is left to undo or redo.")
        }
        let entry = try library.dropNewestHistoryEntry()
        inform("Forgot: \(entry.description) (its changes stay). `albumstore undo` now undoes the command before it.")
    }
}
