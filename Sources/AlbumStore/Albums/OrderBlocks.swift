internal import AlbumSQLite

/// An ordered table's order statistics as stored: its keys cut into blocks of consecutive
/// keys, each with how many rows it holds (migration 0006: `album_blocks`), which the generated
/// triggers (`OrderStatisticsTriggers`) keep counting. This type keeps their shape: it cuts a
/// block grown past twice `size` and merges one shrunk below a quarter of it into the block
/// before, inside the library's own write transactions; it rebuilds them when they may have
/// missed writes, and catches them up after a bulk insert that ran without the triggers.
///
/// Why blocks found by keys rather than ranges of fixed width: keys are gapped (appends 2^32
/// apart, inserts halve gaps, a renumbering spreads a window, another program may write any
/// key), so fixed ranges would be badly skewed; blocks cut by row count stay even whatever the
/// keys. Why `size` 4096: a lookup sums the counts of the blocks before the one it wants (at 20
/// million albums some 5,000 rows of two integers, summed inside SQLite) and then steps over at
/// most a block in the position index; both stay well under a millisecond.
struct OrderBlocks: InsertFollower {
    /// How many rows a block is cut to.
    static let size = 4096

    let table: String
    let order: TableDescription.Order

    static let albums = OrderBlocks(table: TableDescription.albums.name, order: .albums)

    init(table: String, order: TableDescription.Order) {
        self.table = table
        self.order = order
        // Every command reads the SQL below several times: quoting the names (`identifier`,
        // through Swift's string search) each time cost a command some 50,000 instructions, a
        // tenth of an insert's (callgrind, scripts/bench-albums). Built once per table instead.
        blocks = ChangeLogTriggers.identifier(order.blocks)
        quotedTable = ChangeLogTriggers.identifier(table)
        column = ChangeLogTriggers.identifier(order.column)
        let checked = ChangeLogTriggers.identifier(order.checked)
        // ?1: the schema version, read by `schemaVersion` (the table-valued `pragma_schema_version`
        // prepares a PRAGMA statement each time it runs, and a command reads this 3 to 5 times).
        areCheckedSQL = """
            SELECT (SELECT schema_version FROM \(checked) WHERE id = 1) = ?1
                AND EXISTS (SELECT 1 FROM \(blocks) WHERE first = ?2)
            """
        // Written only when it differs: an ordinary command writes no extra page.
        stampSQL = "UPDATE \(checked) SET schema_version = ?1 WHERE id = 1 AND schema_version IS NOT ?1"
        unevenSQL = "SELECT first, count FROM \(blocks) WHERE count > ? OR (count < ? AND first > ?) ORDER BY first"
        let total = ChangeLogTriggers.identifier(order.total)
        resetTotalSQL = "INSERT OR REPLACE INTO \(total) (id, total) VALUES (1, (SELECT coalesce(sum(count), 0) FROM \(blocks)))"
        addToTotalSQL = "UPDATE \(total) SET total = total + ? WHERE id = 1"
        statisticsSQL = StatisticsSQL(blocks: blocks, table: quotedTable, column: column, total: total)
    }

    /// The first key of the first block: the smallest 64-bit integer, so every key has a block.
    static let origin = Int64.min

    // MARK: Trust

    /// Whether the counts can be trusted: they were last known right at the schema version the
    /// file is at now, and the first block is there. A trigger dropped or edited (in the
    /// `sqlite3` shell) changes the schema version, so counts that may have missed writes are
    /// found out by this one comparison (two small reads).
    func areChecked(in connection: Connection) throws -> Bool {
        try connection.scalar(areCheckedSQL, try Self.schemaVersion(in: connection), Self.origin, as: Bool.self) ?? false
    }

    /// The schema version of the file as `connection` sees it now (in its transaction).
    private static func schemaVersion(in connection: Connection) throws -> Int64 {
        try connection.scalar("PRAGMA main.schema_version", as: Int64.self) ?? 0
    }

    /// Cuts and merges blocks that need it, then records that the counts are right at the schema
    /// version reached: called at the end of every library write transaction, whose changes
    /// (the triggers', or a bulk insert's catch-up) kept them right.
    func finish(in connection: Connection) throws {
        try rebalance(in: connection)
        try connection.run(stampSQL, try Self.schemaVersion(in: connection))
    }

    // MARK: Shape

    /// Counts every row again: one block, cut to size in one pass over the position index; then
    /// records that the counts are right, so the rest of the transaction uses them.
    func rebuild(in connection: Connection) throws {
        try connection.run("DELETE FROM \(blocks)")
        try connection.run("INSERT INTO \(blocks) (first, count) VALUES (?, 0)", Self.origin)
        try cut(from: Self.origin, in: connection)
        try ifTotalKept { try connection.run(resetTotalSQL) }
        try connection.run(stampSQL, try Self.schemaVersion(in: connection))
    }

    /// The total of the counts as stored (migration 0010), or `nil` when the file keeps none
    /// (an older schema): then the counts are summed.
    func storedTotal(in connection: Connection) throws -> Int? {
        try ifTotalKept { try connection.scalar(statisticsSQL.total, as: Int.self) } ?? nil
    }

    /// Runs `body` unless the file has no total's table (migrations before 0010).
    private func ifTotalKept<T>(_ body: () throws -> T) throws -> T? {
        do {
            return try body()
        } catch let error as SQLiteError where error.message.hasPrefix("no such table") {
            return nil
        }
    }

    /// Whether some block is to be cut or merged (a scan of the blocks' few thousand rows).
    func needsRebalancing(in connection: Connection) throws -> Bool {
        try connection.scalar(unevenSQL + " LIMIT 1", Self.size * 2, Self.size / 4, Self.origin, as: Int64.self) != nil
    }

    /// Cuts every block grown past twice `size` and merges every one shrunk below a quarter of it
    /// into the block before. A block whose rows all share a few keys (another program's) cannot
    /// be cut and stays as it is: its counts are right, lookups in it only walk further.
    func rebalance(in connection: Connection) throws {
        let uneven = try connection.query(unevenSQL, Self.size * 2, Self.size / 4, Self.origin) {
            (first: try $0[0, as: Int64.self], count: try $0[1, as: Int.self])
        }
        var merged = false
        for block in uneven {
            if block.count > Self.size * 2 {
                try cut(from: block.first, in: connection)
            } else {
                try connection.run("""
                    UPDATE \(blocks) SET count = count + ?
                    WHERE first = (SELECT max(first) FROM \(blocks) WHERE first < ?)
                    """, block.count, block.first)
                try connection.run("DELETE FROM \(blocks) WHERE first = ?", block.first)
                merged = true
            }
        }
        guard merged else { return }
        // A merge may have made its neighbour too large: one more round cuts it (a cut leaves
        // nothing it could cut further, so no other round is needed).
        let large = try connection.query("SELECT first FROM \(blocks) WHERE count > ?", Self.size * 2) { try $0[0, as: Int64.self] }
        for first in large { try cut(from: first, in: connection) }
    }

    /// Counts the rows of the block starting at `first` again and cuts it into blocks of `size`
    /// rows, each starting where a key changes (rows sharing a key stay in one block).
    func cut(from first: Int64, in connection: Connection) throws {
        let next = try connection.scalar("SELECT min(first) FROM \(blocks) WHERE first > ?", first, as: Int64.self)
        var cuts: [(first: Int64, count: Int)] = [(first, 0)]
        var previous: Int64?
        // Only an integer key can start a block; one of another type another program wrote stays
        // in the block it sorts into.
        try forEachKey(from: first, to: next, in: connection) { key in
            if let key, let last = cuts.last, last.count >= Self.size, let previous, previous < key {
                cuts.append((key, 0))
            }
            if let last = cuts.indices.last { cuts[last].count += 1 }
            previous = key
        }
        // A short remainder joins the piece before it rather than make a block to merge later.
        if cuts.count > 1, let remainder = cuts.last, remainder.count < Self.size / 4 {
            cuts.removeLast()
            cuts[cuts.count - 1].count += remainder.count
        }
        try connection.run("UPDATE \(blocks) SET count = ? WHERE first = ?", cuts[0].count, first)
        let insert = try connection.cachedStatement("INSERT INTO \(blocks) (first, count) VALUES (?, ?)")
        for cut in cuts.dropFirst() { try insert.run(cut.first, cut.count) }
    }

    /// Calls `body` with each key from `first` up to `next` (to the end when `nil`), in list
    /// order: `nil` for a key that is not an integer (another program's).
    func forEachKey(from first: Int64, to next: Int64?, in connection: Connection, _ body: (Int64?) throws -> Void) throws {
        try connection.cachedStatement(next == nil ? statisticsSQL.keysOfLastBlock : statisticsSQL.keysOfBlock)
            .forEach(next.map { [first, $0] } ?? [first]) { row in
                // The key's type read here, not by `typeof()` in the SQL: a function call a row
                // made the pass several times slower.
                if case let .integer(key) = try row[0, as: SQLiteValue.self] { try body(key) } else { try body(nil) }
            }
    }

    // MARK: Bulk inserts

    /// The insert trigger a bulk insert sets aside (`BulkInsert`), calling `catchUp` instead.
    var insertTriggers: [String] { [OrderStatisticsTriggers.name(of: table, .insert)] }

    /// Counts rows inserted while the insert trigger stood aside (a bulk insert) into the blocks
    /// holding their keys; `finish` then cuts the blocks that grew. The cost is that of the rows
    /// added, whatever the library held before.
    ///
    /// Appended rows (an import, `append(contentsOf:)`: keys rising with the ids, after every
    /// key there was) all go to the last block, and are counted in the position index alone, from
    /// the first new row's key: reading the rows themselves to find each one's block takes 17 s
    /// for 20 million rows here, against 3 s. Rows anywhere else are grouped by block.
    func catchUp(inserted ids: RowIDs, in connection: Connection) throws {
        let add = try connection.cachedStatement("UPDATE \(blocks) SET count = count + ? WHERE first = ?")
        let last = try connection.scalar("SELECT max(first) FROM \(blocks)", as: Int64.self)
        var added = 0
        for range in ids.ranges {
            if let last, try appendedCount(range, after: last, in: connection) == range.count {
                try add.run(range.count, last)
                added += range.count
                continue
            }
            let grouped = try connection.cachedStatement("""
                SELECT (SELECT max(first) FROM \(blocks) WHERE first <= \(quotedTable).\(column)) AS block, count(*)
                FROM \(quotedTable) WHERE rowid BETWEEN ? AND ? GROUP BY block
                """).map([range.lowerBound, range.upperBound]) { (first: try $0[0, as: Int64?.self], count: try $0[1, as: Int.self]) }
            for block in grouped {
                // No block at or below the key: the first block is gone (another program): count
                // nothing, and the next command, finding the counts unchecked, rebuilds them.
                guard let first = block.first else { continue }
                try add.run(block.count, first)
                added += block.count
            }
        }
        // The total takes what the blocks took (the insert trigger that keeps it stood aside too).
        if added > 0 { try ifTotalKept { try connection.run(addToTotalSQL, added) } }
    }

    /// How many rows of `ids` have a key at or after the key of the first of them, itself in the
    /// last block (starting at `last`): all of them when they were appended in key order.
    /// `+rowid`: the ids only filter the index entries, so SQLite walks the position index.
    private func appendedCount(_ ids: ClosedRange<Int64>, after last: Int64, in connection: Connection) throws -> Int? {
        guard let start = try connection.scalar(
            "SELECT \(column) FROM \(quotedTable) WHERE rowid = ? AND typeof(\(column)) = 'integer'", ids.lowerBound, as: Int64.self),
            start >= last else { return nil }
        return try connection.scalar(
            "SELECT count(*) FROM \(quotedTable) WHERE \(column) >= ? AND +rowid BETWEEN ? AND ?",
            start, ids.lowerBound, ids.upperBound, as: Int.self)
    }

    // MARK: SQL

    /// The blocks' table, the ordered table and its key column, quoted.
    let blocks: String
    private let quotedTable: String
    private let column: String
    private let areCheckedSQL: String
    private let stampSQL: String
    private let unevenSQL: String
    private let resetTotalSQL: String
    private let addToTotalSQL: String
    /// What `OrderStatistics` reads.
    let statisticsSQL: StatisticsSQL

    /// The statements of `OrderStatistics`, built with the names once.
    struct StatisticsSQL {
        let count: String
        let total: String
        let exactCount: String
        let ascending: String
        let descending: String
        let blockOf: String
        let countBefore: String
        let countInBlock: String
        let countAfterInBlock: String
        let keysFrom: String
        let keysBackFrom: String
        let keysBackFromEnd: String
        /// A block's keys in order (`forEachKey`).
        let keysOfBlock: String
        let keysOfLastBlock: String

        init(blocks: String, table: String, column key: String, total totalTable: String) {
            count = "SELECT total(count) FROM \(blocks)"
            total = "SELECT total FROM \(totalTable) WHERE id = 1"
            exactCount = "SELECT count(*) FROM \(table)"
            ascending = "SELECT first, count FROM \(blocks) ORDER BY first ASC"
            descending = "SELECT first, count FROM \(blocks) ORDER BY first DESC"
            blockOf = "SELECT max(first) FROM \(blocks) WHERE first <= ?"
            countBefore = "SELECT total(count) FROM \(blocks) WHERE first < ?"
            // Both bounds on the key, so SQLite walks only the block's range of the index.
            countInBlock = """
                SELECT count(*) FROM \(table) WHERE \(key) >= ? AND \(key) <= ? AND (\(key) < ? OR rowid < ?)
                """
            // The rows from a key to the next block's first key: the key's own row and those after it.
            countAfterInBlock = """
                SELECT count(*) FROM \(table) WHERE \(key) >= ? AND \(key) < ? AND (\(key) > ? OR rowid >= ?)
                """
            // Rowids and keys OFFSET rows on from a key, or back from before a key or from the end.
            keysFrom = "SELECT rowid, \(key) FROM \(table) WHERE \(key) >= ? ORDER BY \(key), rowid LIMIT ? OFFSET ?"
            keysBackFrom = "SELECT rowid, \(key) FROM \(table) WHERE \(key) < ? ORDER BY \(key) DESC, rowid DESC LIMIT ? OFFSET ?"
            keysBackFromEnd = "SELECT rowid, \(key) FROM \(table) ORDER BY \(key) DESC, rowid DESC LIMIT ? OFFSET ?"
            keysOfLastBlock = "SELECT \(key) FROM \(table) WHERE \(key) >= ? ORDER BY \(key)"
            keysOfBlock = "SELECT \(key) FROM \(table) WHERE \(key) >= ? AND \(key) < ? ORDER BY \(key)"
        }
    }
}
