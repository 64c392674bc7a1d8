import FoundationEssentials
internal import AlbumSQLite

/// Reads and prunes the change log (`change_log`, written by triggers), turning its entries
/// into one `ChangeSet` per transaction.
struct ChangeLog: Sendable {
    var retention: ChangeLogRetention

    init(retention: ChangeLogRetention = ChangeLogRetention()) { self.retention = retention }

    /// The newest entry's position (0 when the log is empty): a cursor that skips everything so far.
    static func latestCursor(in connection: Connection) throws -> Int64 {
        // Pruning keeps the newest entry, so this never goes back.
        do {
            return try connection.scalar("SELECT max(seq) FROM change_log") ?? 0
        } catch let error as SQLiteError where error.message.hasPrefix("no such table") {
            return 0   // a library made with a test's own migrations has no change log
        }
    }

    /// The cursor `count` change sets back from the newest: a feed from it first gives those
    /// change sets. When the log keeps fewer, the cursor before everything it keeps.
    ///
    /// Walks back one change set (a run of entries of one transaction) at a time, so it reads
    /// only the entries of the sets it counts, not the whole log.
    static func cursor(changeSetsBack count: Int, in connection: Connection) throws -> Int64 {
        var cursor = try latestCursor(in: connection)
        for _ in 0..<max(0, count) {
            guard let transaction = try connection.scalar(
                "SELECT tx FROM change_log WHERE seq <= ? ORDER BY seq DESC LIMIT 1", cursor, as: Int64.self),
                  let before = try connection.scalar(
                    "SELECT seq FROM change_log WHERE seq <= ? AND tx != ? ORDER BY seq DESC LIMIT 1",
                    cursor, transaction, as: Int64.self)
            else { return try prunedThrough(in: connection) }
            cursor = before
        }
        return cursor
    }

    /// The newest entry's position and transaction number, (0, 0) for an empty log: where a
    /// library write starts from.
    static func newest(in connection: Connection) throws -> (cursor: Int64, transaction: Int64) {
        try connection.first("SELECT seq, tx FROM change_log ORDER BY seq DESC LIMIT 1") {
            (try $0[0, as: Int64.self], try $0[1, as: Int64.self])
        } ?? (0, 0)
    }

    /// The transaction number of the entry at `cursor`, 0 when there is none.
    static func transaction(at cursor: Int64, in connection: Connection) throws -> Int64 {
        try connection.scalar("SELECT tx FROM change_log WHERE seq = ?", cursor) ?? 0
    }

    /// Gives the entries after `cursor` (those a library write logged) the number `transaction`:
    /// called last in the write, with one past the number of the newest entry when it began.
    ///
    /// Why at the end, not with a counter bumped at the start (`change_control.tx`, which earlier
    /// versions bumped and this one no longer reads): the counter's page was one more page written
    /// by every commit, while the entries numbered here sit on pages the write has dirtied already.
    static func number(entriesAfter cursor: Int64, as transaction: Int64, in connection: Connection) throws {
        try connection.run("UPDATE change_log SET tx = ? WHERE seq > ?", transaction, cursor)
    }

    /// The position up to which entries have been pruned: a cursor below it has missed some.
    static func prunedThrough(in connection: Connection) throws -> Int64 {
        try connection.scalar("SELECT pruned_through FROM change_control") ?? 0
    }

    /// Whether rows of `table` may have changed after `cursor`, up to `through` (always so once
    /// the log no longer reaches back that far).
    static func hasChanges(to table: String, after cursor: Int64, through: Int64 = .max, in connection: Connection) throws -> Bool {
        if try prunedThrough(in: connection) > cursor { return true }
        return try connection.scalar(
            "SELECT 1 FROM change_log WHERE seq > ? AND seq <= ? AND table_name = ? LIMIT 1", cursor, through, table,
            as: Int.self) != nil
    }

    /// The change sets committed after `cursor`, oldest first.
    /// - Throws: `ChangeFeedError.cursorExpired` when entries after `cursor` have been pruned.
    static func changeSets(after cursor: Int64, in connection: Connection) throws -> [ChangeSet] {
        let prunedThrough = try prunedThrough(in: connection)
        if cursor < prunedThrough { throw ChangeFeedError.cursorExpired(cursor: cursor, oldest: prunedThrough) }
        var sets: [ChangeSet] = []
        var builder: ChangeSetBuilder?
        try connection.cachedStatement(
            "SELECT seq, tx, table_name, operation, row_id, last_row_id, at FROM change_log WHERE seq > ? ORDER BY seq"
        ).forEach([cursor]) { row in
            // Another program may have written an operation we do not know: skip that entry.
            guard let operation = ChangeOperation(rawValue: try row[3]) else { return }
            let entry = Entry(seq: try row[0], transaction: try row[1], table: try row[2], operation: operation,
                              rowID: try row[4], lastRowID: try row[5], at: try row[6])
            // A set is a run of consecutive entries of one transaction.
            if let current = builder, current.transaction != entry.transaction {
                sets.append(current.build())
                builder = nil
            }
            var current = builder ?? ChangeSetBuilder(transaction: entry.transaction, at: entry.at)
            current.add(entry)
            builder = current
        }
        if let builder { sets.append(builder.build()) }
        return sets
    }

    /// Runs `body`, which inserts or deletes many rows of `table`, with the per-row triggers off,
    /// and logs the rows as range entries: one entry for a million contiguous ids.
    static func bulk(
        _ operation: ChangeOperation, _ table: TableDescription, in connection: Connection, _ body: () throws -> RowIDs
    ) throws -> RowIDs {
        try connection.run("UPDATE change_control SET bulk = 1")
        let ids = try body()
        try connection.run("UPDATE change_control SET bulk = 0")
        let now = Date().millisecondsSince1970
        for range in ids.ranges {
            try connection.run("""
                INSERT INTO change_log (tx, table_name, operation, row_id, last_row_id, at)
                VALUES (\(ChangeLogTriggers.newestTransactionSQL), ?, ?, ?, ?, ?)
                """, table.name, operation.rawValue, range.lowerBound, range.upperBound, now)
        }
        return ids
    }

    /// Deletes entries past the retention bounds and records how far the log now starts.
    func prune(in connection: Connection, now: Date = Date()) throws {
        // In 128 bits: sequence numbers written by another program may sit at the limits.
        let latest = Int128(try Self.latestCursor(in: connection))
        let maxAge = Int128(retention.maxAge.components.seconds) * 1000
        let oldestKept = Int64(clamping: Int128(now.millisecondsSince1970) - maxAge)
        // Entries are in time order, so this walks only the entries it will prune (no index on `at`).
        let firstKept = try connection.scalar(
            "SELECT seq FROM change_log WHERE at >= ? ORDER BY seq LIMIT 1", oldestKept, as: Int64.self)
            .map { Int128($0) } ?? latest + 1
        // Never the newest entry: it keeps the next sequence number from going back.
        let cutoff = Int64(clamping: min(max(latest - Int128(retention.maxEntries), firstKept - 1), latest - 1))
        guard try cutoff > Self.prunedThrough(in: connection) else { return }
        try connection.run("DELETE FROM change_log WHERE seq <= ?", cutoff)
        try connection.run("UPDATE change_control SET pruned_through = ?", cutoff)
    }

    struct Entry {
        var seq: Int64
        var transaction: Int64
        var table: String
        var operation: ChangeOperation
        var rowID: Int64
        var lastRowID: Int64?
        var at: Int64
    }
}
