import AlbumSQLite

/// Turns 0-based list indexes into position keys without walking the list.
///
/// SQLite can find a position key in O(log n), but not the n-th one: `OFFSET n` steps through n
/// index entries. This index keeps, in memory, the list cut into blocks of about `blockSize`
/// albums (the first position key of each block and how many albums it holds), so the n-th
/// album is a short prefix sum plus an `OFFSET` of at most a block.
///
/// It lives on the writer connection and is kept current from the changesets of our own
/// commands. When another connection has committed (`PRAGMA data_version` moved), the change log
/// tells whether that touched the albums; if it did (or the log no longer reaches back that
/// far), a failed command, or a block grown far past its size, the index is thrown away and the
/// next use rebuilds it (one pass over the position index: about 0.1 s for 1,000,000 albums).
struct OrderIndex: Sendable {
    static let blockSize = 1024

    struct Block: Sendable {
        var first: Int64
        var count: Int
    }

    private var blocks: [Block] = []
    private var isBuilt = false
    /// The `data_version` and change log position the index was last checked against.
    private var dataVersion: Int64?
    private var logCursor: Int64 = 0
    private(set) var count = 0

    /// Forgets everything; the next `prepare` rebuilds.
    mutating func invalidate() {
        isBuilt = false
        dataVersion = nil
    }

    /// Catches up with other connections' commits: keeps the index unless they changed albums.
    /// Call it at the start of every transaction on the writer.
    mutating func refresh(_ connection: Connection) throws {
        let version = try connection.dataVersion()
        if version == dataVersion { return }
        if try isBuilt && (dataVersion == nil || ChangeLog.hasChanges(to: "albums", after: logCursor, in: connection)) {
            isBuilt = false
        }
        dataVersion = version
        logCursor = try ChangeLog.latestCursor(in: connection)
    }

    /// Marks our own command's log entries as accounted for (its changeset went to `apply`);
    /// returns the newest log position.
    mutating func advance(_ connection: Connection) throws -> Int64 {
        logCursor = try ChangeLog.latestCursor(in: connection)
        return logCursor
    }

    /// Makes sure the index matches the database `connection` sees, building it when needed.
    /// Inside a write the library has already refreshed it (`refresh: false`).
    mutating func prepare(_ connection: Connection, refresh: Bool = true) throws {
        if refresh { try self.refresh(connection) }
        if isBuilt { return }
        let firsts = try connection.query("""
            SELECT position FROM (SELECT position, row_number() OVER (ORDER BY position, id) - 1 AS rank FROM albums)
            WHERE rank % \(Self.blockSize) = 0
            """) { try $0[0, as: Int64.self] }
        count = try connection.scalar("SELECT count(*) FROM albums") ?? 0
        blocks = firsts.enumerated().map { offset, first in
            Block(first: offset == 0 ? .min : first, count: min(Self.blockSize, count - offset * Self.blockSize))
        }
        if blocks.isEmpty { blocks = [Block(first: .min, count: 0)] }
        isBuilt = true
    }

    /// The first position key of the block holding index `index`, and the offset inside it.
    func locate(_ index: Int) -> (from: Int64, offset: Int) {
        var remaining = index
        for block in blocks {
            if remaining < block.count { return (block.first, remaining) }
            remaining -= block.count
        }
        return (blocks.last!.first, blocks.last!.count + remaining)
    }

    /// The index of the first album at or after `position`: albums in earlier blocks plus those
    /// before it in its block (counted by SQLite over at most a block).
    func index(of position: Int64, id: Album.ID, in connection: Connection) throws -> Int {
        let block = blockIndex(of: position)
        let before = blocks[..<block].reduce(0) { $0 + $1.count }
        let inBlock = try connection.scalar("""
            SELECT count(*) FROM albums
            WHERE position >= ? AND (position < ? OR (position = ? AND id < ?))
            """, blocks[block].first, position, position, id, as: Int.self) ?? 0
        return before + inBlock
    }

    /// Keeps the counts in step with a command's changes to `albums` (column 1 is `position`).
    mutating func apply(_ changeset: Changeset) throws {
        guard isBuilt else { return }
        try changeset.forEach { change in
            guard change.table == "albums" else { return }
            if case .integer(let old) = change.old(1) { add(-1, at: old) }
            if case .integer(let new) = change.new(1) { add(1, at: new) }
        }
        if blocks.contains(where: { $0.count > 8 * Self.blockSize }) { invalidate() }
    }

    private mutating func add(_ delta: Int, at position: Int64) {
        blocks[blockIndex(of: position)].count += delta
        count += delta
    }

    /// The last block whose first key is at or before `position` (binary search).
    private func blockIndex(of position: Int64) -> Int {
        var low = 0, high = blocks.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if blocks[middle].first <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
