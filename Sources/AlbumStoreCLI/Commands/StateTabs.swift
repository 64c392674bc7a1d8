import AlbumStore
import ArgumentParser

struct StateTabs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tabs",
        abstract: "Show or save the tab order (not undoable).",
        discussion: """
            With tab identifiers, saves them as the tab order; with --default, sets the order \
            that applies while none is saved. Saving the order already saved writes nothing and \
            notifies no one. Empty and repeated identifiers are refused. Without arguments, \
            prints the order in effect, one identifier a line (JSON: an array).

            Examples:
              albumstore state tabs
              albumstore state tabs details covers albums
              albumstore state tabs --default albums covers details
              albumstore state tabs --reset
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOptions
    @Argument(help: "The tab identifiers, in order.") var tabs: [String] = []
    @Option(name: .customLong("default"), parsing: .upToNextOption, help: "Set the default tab order to these identifiers.")
    var defaultTabs: [String] = []
    @Flag(help: "Forget the saved order: the default applies again.") var reset = false

    func validate() throws {
        if reset && !tabs.isEmpty { throw ValidationError("Give tab identifiers or --reset, not both.") }
    }

    func run() throws {
        let writes = !tabs.isEmpty || !defaultTabs.isEmpty || reset
        let session = try store.openLibrary(writes ? .readWrite : .readOnly).session
        if !defaultTabs.isEmpty {
            let saved = try session.setDefaultTabOrder(defaultTabs)
            inform(saved ? "Saved the default tab order." : "The default tab order is unchanged: nothing was written.")
        }
        if reset {
            try session.resetTabOrder()
            inform("Forgot the saved tab order: the default applies.")
        }
        if !tabs.isEmpty {
            let saved = try session.setTabOrder(tabs)
            inform(saved ? "Saved the tab order." : "The tab order is unchanged: nothing was written.")
        }
        if writes { return }
        let order = try session.tabOrder()
        try StateOutput.print(header: ["Tab"], rows: order.map { [$0] }, json: .array(order.map { .string($0) }), as: output)
    }
}
