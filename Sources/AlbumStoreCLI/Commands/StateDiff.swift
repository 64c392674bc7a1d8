import AlbumStore
import ArgumentParser

struct StateDiff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what differs between two snapshots, or a snapshot and the state now.",
        discussion: """
            One row per item whose value differs, with its value in each (empty: none). \
            JSON: an array of {item, before, after}, a missing value null.

            Examples:
              albumstore state diff before-party            # against now
              albumstore state diff before-party after-party --format json
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOptions
    @Argument(help: "The snapshot to compare from.", completion: LibraryCompletion.snapshotName) var before: String
    @Argument(help: "The snapshot to compare to (default: the state now).", completion: LibraryCompletion.snapshotName) var after: String?

    func run() throws {
        let differences = try store.openLibrary(.readOnly).session.differences(from: before, to: after)
        let rows = differences.map { ["\($0.item)", $0.before?.description ?? "", $0.after?.description ?? ""] }
        let json = JSONValue.array(differences.map(\.json))
        try StateOutput.print(header: ["Item", before, after ?? "now"], rows: rows, json: json, as: output)
        if differences.isEmpty { inform("No differences.") }
    }
}
