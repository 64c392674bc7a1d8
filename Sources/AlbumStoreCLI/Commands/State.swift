import AlbumStore
import ArgumentParser

struct State: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Show the session state (current album, tab order, keys) and manage its snapshots.",
        usage: "albumstore state [--db <path>] [--format <format>]\n  albumstore state <subcommand>",
        discussion: """
            What an app keeps between launches, in the library file: the album the user was \
            looking at (its index and id), the order of the tabs, and small JSON values under \
            string keys. Saving state takes no undo step; restoring a snapshot is one undoable \
            command. Without a subcommand, prints every item that has a value.

            JSON (--format json): the state object of the snapshot file format: current_album \
            ({index, album_id} or null), tab_order, default_tab_order (arrays or null), keys.

            Examples:
              albumstore state
              albumstore state current --index 3
              albumstore state snapshot before-party && albumstore state restore before-party
            """,
        subcommands: [
            StateCurrent.self, StateTabs.self, StateGet.self, StateSet.self, StateUnset.self, StateTakeSnapshot.self,
            StateSnapshots.self, StateShow.self, StateDiff.self, StateRestore.self, StateRemove.self, StateExport.self,
            StateImport.self,
        ])

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOptions

    func run() throws {
        let state = try store.openLibrary(.readOnly).session.state()
        if state.items.isEmpty && output.format == .table {
            return inform("Nothing is saved: no current album, tab order or key. `albumstore state --help` says how to save them.")
        }
        try StateOutput.print(header: ["Item", "Value"], rows: StateOutput.rows(of: state), json: state.json, as: output)
    }
}
