import AlbumStore
import ArgumentParser
import FoundationEssentials

struct StateTakeSnapshot: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Take a snapshot of the whole session state (not undoable).",
        discussion: """
            Without a name, the snapshot is named after the time: snapshot-2026-11-22T08:15:03Z. \
            Prints the name on stdout (JSON: name, taken_at, state).

            Examples:
              albumstore state snapshot before-party
              name=$(albumstore state snapshot)
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOptions
    @Argument(help: "The snapshot's name (default: snapshot- and the time).") var name: String?

    func run() throws {
        let snapshot = try store.openLibrary(.readWrite).session.takeSnapshot(named: name)
        inform("Took snapshot “\(snapshot.name)” (\(Counted(snapshot.state.items.count, "item"))).")
        try StateOutput.print(header: ["Name"], rows: [[snapshot.name]], json: snapshot.json, as: output)
    }
}

struct StateSnapshots: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshots",
        abstract: "List the snapshots, oldest first.",
        discussion: """
            JSON: an array of {name, taken_at, state}.

            Example: albumstore state snapshots --format json
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOptions

    func run() throws {
        let snapshots = try store.openLibrary(.readOnly).session.snapshots()
        if snapshots.isEmpty && output.format == .table {
            return inform("No snapshots. `albumstore state snapshot NAME` takes one.")
        }
        let rows = snapshots.map {
            [$0.name, ISO8601Timestamp.string(from: $0.takenAt), StateOutput.list($0.state.items)]
        }
        try StateOutput.print(header: ["Name", "Taken", "Items"], rows: rows, json: .array(snapshots.map(\.json)), as: output)
    }
}

struct StateShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the state a snapshot holds.",
        discussion: """
            JSON: {name, taken_at, state}, state as `albumstore state --format json` prints it.

            Example: albumstore state show before-party
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOptions
    @Argument(help: "The snapshot's name.", completion: LibraryCompletion.snapshotName) var name: String

    func run() throws {
        let snapshot = try store.openLibrary(.readOnly).session.snapshot(named: name)
        try StateOutput.print(
            header: ["Item", "Value"], rows: StateOutput.rows(of: snapshot.state), json: snapshot.json, as: output)
    }
}

struct StateRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete a snapshot (cannot be undone; `state export` keeps a copy).",
        discussion: "Example: albumstore state rm before-party")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The snapshot's name.", completion: LibraryCompletion.snapshotName) var name: String

    func run() throws {
        try store.openLibrary(.readWrite).session.deleteSnapshot(named: name)
        inform("Deleted snapshot “\(name)”.")
    }
}
