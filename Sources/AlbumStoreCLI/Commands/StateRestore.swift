import AlbumStore
import ArgumentParser

struct StateRestore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a snapshot, whole or in part (one undoable command).",
        discussion: """
            Atomic: every item or none. Only the items whose values change are written, so \
            observers hear of those alone. --only limits the restore to some items: current \
            (the current album), tabs (the tab order and its default) and key names (key:NAME \
            for a key named current or tabs). When the snapshot's album no longer exists, the \
            current album falls back to its index, clamped to the list, and a message says so.

            Examples:
              albumstore state restore before-party
              albumstore state restore before-party --only current,tabs,player
              albumstore undo                                # puts the state back
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The snapshot's name.", completion: LibraryCompletion.snapshotName) var name: String
    @Option(help: ArgumentHelp("Restore only these items, comma-separated.", valueName: "items")) var only: String?

    func validate() throws {
        if let only, only.split(separator: ",").isEmpty { throw ValidationError("--only needs at least one item.") }
    }

    func run() throws {
        let items = only.map { Set($0.split(separator: ",").flatMap { SessionItem.parse(String($0)) }) }
        let restore = try store.openLibrary(.readWrite).session.restoreSnapshot(named: name, only: items)
        if restore.changed.isEmpty {
            inform("Restored “\(name)”: the state was already as it holds; nothing changed.")
        } else {
            inform("Restored “\(name)”: \(StateOutput.list(restore.changed)). `albumstore undo` puts them back.")
        }
        if let current = restore.currentAlbum, !current.isSavedAlbum,
           restore.changed.contains(.currentAlbum) || items == nil || items?.contains(.currentAlbum) == true {
            inform("The current album is #\(current.index) \(current.album.quoted), \(StateOutput.fallback(current)).")
        }
    }
}
