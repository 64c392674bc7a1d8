import Synchronization
internal import AlbumSQLite

/// The albums' order statistics (`album_blocks`) as the writer connection last read them, for
/// navigation writes (`Library.navigate`): saving the current album at an index walks them in
/// memory instead of summing the few hundred or thousand rows of the table twice (the count,
/// then the walk to the index), which cost more than the rest of the save together.
///
/// They are the blocks in the file for as long as the file is as it was when they were read:
/// no other connection, in any process, has committed since (`PRAGMA data_version`), the schema
/// is the same (`PRAGMA schema_version`: a dropped trigger shows there), and the writer itself
/// has changed no row (`total_changes`), but through navigation writes, which change no album:
/// those carry the entry over to the state they leave (`carry`). Any other write, a command, a
/// repair, an import, changes rows on the writer, so the next navigation write reads the blocks
/// again. Used only under the writer, inside its write transaction.
final class OrderBlocksCache: Sendable {
    /// What the file is as the writer sees it, inside a write transaction.
    struct State: Equatable, Sendable {
        var dataVersion: Int64
        var schemaVersion: Int64
        var totalChanges: Int

        init(of connection: Connection) throws {
            dataVersion = try connection.dataVersion()
            schemaVersion = try connection.scalar("PRAGMA schema_version") ?? 0
            totalChanges = connection.totalChanges
        }
    }

    private struct Entry {
        var state: State
        var blocks: [OrderStatistics.Block]
        var count: Int
    }

    private let entry = Mutex<Entry?>(nil)

    /// The blocks and their total, if they were read in `state`.
    func blocks(in state: State) -> (blocks: [OrderStatistics.Block], count: Int)? {
        entry.withLock { entry in entry.flatMap { $0.state == state ? ($0.blocks, $0.count) : nil } }
    }

    /// Keeps `blocks`, read (and checked) in `state`.
    func keep(_ blocks: [OrderStatistics.Block], count: Int, in state: State) {
        entry.withLock { $0 = Entry(state: state, blocks: blocks, count: count) }
    }

    /// After a navigation write that began in `start` committed and left the file in `end`: the
    /// blocks are the same (it changed no album), so the entry read in `start` holds in `end`.
    func carry(from start: State, to end: State) {
        entry.withLock { entry in
            if entry?.state == start { entry?.state = end }
        }
    }
}
