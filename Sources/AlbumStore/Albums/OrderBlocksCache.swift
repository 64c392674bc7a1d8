import Synchronization
internal import AlbumSQLite

/// The albums' order statistics (`album_blocks`) as the writer connection last read them, with
/// the ids of the blocks lookups landed in (`BlockIDs`), for navigation writes
/// (`Library.navigate`): saving the current album at an index walks them in memory instead of
/// summing the few hundred or thousand rows of the table twice (the count, then the walk to the
/// index), and takes the id from its block's ids.
///
/// They hold for as long as no album has changed: the schema is the same (`PRAGMA
/// schema_version`: a dropped trigger, or a bulk insert setting its triggers aside, shows there),
/// and the change log, which the triggers write for every process, shows no change to `albums`
/// since they were read (`ChangeLog.hasChanges`, which also knows when the log was pruned past
/// that point). Commits that change no album (session state, covers, another program's table)
/// leave them in place, whoever makes them. The blocks in the file may be cut or merged
/// meanwhile: those held are still a right partition of the unchanged list. (A program that
/// writes with triggers switched off, `SQLITE_DBCONFIG_ENABLE_TRIGGER`, goes unseen here, as it
/// does by the order statistics in the file: `albumstore check` finds those counts wrong.) Used
/// only under the writer, inside its write transaction.
final class OrderBlocksCache: Sendable {
    /// Where the file stands, as the writer sees it inside a write transaction.
    struct State: Equatable, Sendable {
        var schemaVersion: Int64
        /// The change log's newest entry.
        var cursor: Int64

        init(of connection: Connection, cursor: Int64) throws {
            schemaVersion = try connection.scalar("PRAGMA schema_version") ?? 0
            self.cursor = cursor
        }
    }

    private struct Entry {
        var state: State
        var blocks: [OrderStatistics.Block]
        var count: Int
        /// The ids of the blocks, read as lookups land in them.
        var ids = BlockIDs()
    }

    private let entry = Mutex<Entry?>(nil)

    /// Where the writer's last navigation write left the file, with what shows that nothing has
    /// committed since: another connection's commit moves `PRAGMA data_version`, and a write of
    /// this writer's own moves its `total_changes` (a command, a repair, an import: each changes
    /// rows).
    private let lastNavigation = Mutex<(dataVersion: Int64, totalChanges: Int, state: State)?>(nil)

    /// Where the file stands as a navigation write starts (inside its transaction), and its data
    /// version: where the last one left it when nothing has committed since (one pragma), else
    /// read (the log's newest entry and the schema version: two statements).
    func start(in connection: Connection) throws -> (state: State, dataVersion: Int64) {
        let dataVersion = try connection.dataVersion()
        if let last = lastNavigation.withLock({ $0 }), last.dataVersion == dataVersion, last.totalChanges == connection.totalChanges {
            return (last.state, dataVersion)
        }
        return (try State(of: connection, cursor: try ChangeLog.latestCursor(in: connection)), dataVersion)
    }

    /// The blocks, their total and their ids, if no album changed between when they were read
    /// and `state`, the file as `connection` sees it now.
    func blocks(in state: State, connection: Connection) throws -> (blocks: [OrderStatistics.Block], count: Int, ids: BlockIDs)? {
        guard let held = entry.withLock({ $0 }), held.state.schemaVersion == state.schemaVersion,
              held.state.cursor <= state.cursor else { return nil }
        if held.state.cursor < state.cursor {
            guard try !ChangeLog.hasChanges(to: TableDescription.albums.name, after: held.state.cursor, through: state.cursor,
                                            in: connection) else { return nil }
            // Known to hold up to here: the next look starts from here.
            entry.withLock { if $0?.state == held.state { $0?.state = state } }
        }
        return (held.blocks, held.count, held.ids)
    }

    /// After a navigation write that began in `start` (at `dataVersion`) committed with the log
    /// at `cursor` and the writer's `total_changes` at `totalChanges`: it changed no album, so
    /// blocks that held at its start hold now, and the next write need not look through its
    /// entries. `schemaChanged`: it repaired the order statistics (and their triggers), so the
    /// next one reads the file again.
    func committed(from start: State, dataVersion: Int64, to cursor: Int64, totalChanges: Int, schemaChanged: Bool) {
        var end = start
        end.cursor = cursor
        entry.withLock { entry in
            if entry?.state == start { entry?.state = end }
        }
        lastNavigation.withLock { $0 = schemaChanged ? nil : (dataVersion, totalChanges, end) }
    }

    /// Keeps `blocks`, read (and checked) in `state`; returns their ids, none read yet.
    func keep(_ blocks: [OrderStatistics.Block], count: Int, in state: State) -> BlockIDs {
        entry.withLock {
            let entry = Entry(state: state, blocks: blocks, count: count)
            $0 = entry
            return entry.ids
        }
    }
}
