internal import AlbumSQLite

/// Turns 0-based list indexes into position keys and back without walking the list, from the
/// order statistics kept in the file (`OrderBlocks`), for the snapshot one connection reads.
///
/// SQLite finds a key in O(log n) but not the n-th one (`OFFSET n` steps through n index
/// entries). With the blocks, the n-th album is a sum over the blocks' counts (a few thousand
/// small rows at 20 million albums) plus an `OFFSET` of less than two blocks, so a fresh process
/// answers in a few small reads and nothing is held in memory between calls.
///
/// Counts that cannot be trusted (`OrderBlocks.areChecked`: a trigger was dropped or edited
/// since they were last known right) are not used: the answers then come from the table itself
/// (`isExact`), slower but right, until a library write rebuilds them. A reader cannot rebuild:
/// it sees a snapshot and has no write lock.
struct OrderStatistics {
    /// The counts disagreed with the table (a writer went around the triggers without the schema
    /// version showing it): a read retries counting the table itself, a command rebuilds them.
    struct Stale: Error {}

    /// A block as stored: its first key and how many rows it holds.
    struct Block: Sendable, Equatable {
        var first: Int64
        var count: Int
    }

    let connection: Connection
    let blocks: OrderBlocks
    /// Whether the answers come from the table alone (the counts cannot be trusted).
    let isExact: Bool
    /// How many rows the list holds.
    let count: Int
    /// The blocks in key order, when held in memory (`OrderBlocksCache`); `nil`: read from the table.
    let loaded: [Block]?
    /// The ids of the `loaded` blocks, for lookups in memory.
    let ids: BlockIDs?

    /// The statistics from `loaded` blocks, with `count` their total and `ids` their ids, known
    /// to be the blocks of the file `connection` reads (see `OrderBlocksCache`).
    init(in connection: Connection, blocks: OrderBlocks = .albums, loaded: [Block], count: Int, ids: BlockIDs) {
        self.connection = connection
        self.blocks = blocks
        self.loaded = loaded
        self.ids = ids
        self.count = count
        isExact = false
    }

    /// Reads every block, in key order, and their total: what `OrderBlocksCache` keeps. Counts
    /// that cannot be trusted are not read: `nil`.
    static func load(in connection: Connection, blocks: OrderBlocks = .albums) throws -> (blocks: [Block], count: Int)? {
        guard try blocks.areChecked(in: connection) else { return nil }
        let rows = try connection.query(blocks.statisticsSQL.ascending) {
            Block(first: try $0[0, as: Int64.self], count: try $0[1, as: Int.self])
        }
        return (rows, rows.reduce(0) { $0 + $1.count })
    }

    /// The statistics for what `connection` reads now; `exact` ignores the stored counts.
    /// `checked`: the caller knows the counts are right in this transaction (a library write
    /// checked them when it began), which spares asking again.
    init(in connection: Connection, blocks: OrderBlocks = .albums, exact: Bool = false, checked: Bool = false) throws {
        self.connection = connection
        self.blocks = blocks
        loaded = nil
        ids = nil
        isExact = try exact || (!checked && !blocks.areChecked(in: connection))
        if isExact {
            count = try connection.scalar(blocks.statisticsSQL.exactCount, as: Int.self) ?? 0
        } else if let total = try blocks.storedTotal(in: connection) {
            // Kept by the same triggers as the counts, so trusted with them.
            count = total
        } else {
            count = try connection.scalar(blocks.statisticsSQL.count, as: Int.self) ?? 0
        }
    }

    /// The first key of the block holding index `index` (0..<count) and its offset from there.
    func locate(_ index: Int) throws -> (from: Int64, offset: Int) {
        guard !isExact else { return (OrderBlocks.origin, index) }
        // From the nearer end: an index near the end sums the blocks after it.
        let (first, offset, _, _) = index < count / 2 ? try walk(ascending: true, remaining: index)
            : try walk(ascending: false, remaining: count - index)
        return (first, offset)
    }

    /// The ids and keys of up to `limit` rows from index `index` (0..<count) on, read from the
    /// position index alone (it holds the rowid), stepping into the block from whichever end of
    /// it is nearer: half the index entries of an OFFSET from the block's start, on average,
    /// which is most of what finding an album at an index costs.
    func keys(from index: Int, limit: Int) throws -> [(id: Int64, position: Int64)] {
        let sql = blocks.statisticsSQL
        func rows(_ sql: String, _ arguments: (any Bindable)?...) throws -> [(id: Int64, position: Int64)] {
            try connection.cachedStatement(sql).map(arguments) { (id: try $0[0], position: try $0[1]) }
        }
        if isExact { return try rows(sql.keysFrom, OrderBlocks.origin, limit, index) }
        let (first, offset, size, next) = index < count / 2 ? try walk(ascending: true, remaining: index)
            : try walk(ascending: false, remaining: count - index)
        // The block's rows after the last one wanted; backwards when they are fewer than those
        // before the first, and the rows wanted do not run into the next block.
        let after = size - offset - limit
        guard after >= 0, after < offset else { return try rows(sql.keysFrom, first, limit, offset) }
        // The rows before the next block's first key, backwards (the last block has no next one:
        // its end is the index's end). One bound only, as forwards: a lower bound would be
        // compared with every row stepped over.
        let backwards = try next.map { try rows(sql.keysBackFrom, $0, limit, after) }
            // No bound at all: the key column is NOT NULL, so every row is in some block.
            ?? rows(sql.keysBackFromEnd, limit, after)
        return backwards.reversed()
    }

    /// The row id of the row at `index` (0..<count): from the block's ids when they are held
    /// (`BlockIDs`), else from the position index alone (`keys`).
    func id(at index: Int) throws -> Int64 {
        if let ids, !isExact {
            let (first, offset, size, next) = index < count / 2 ? try walk(ascending: true, remaining: index)
                : try walk(ascending: false, remaining: count - index)
            return try ids.id(at: offset, inBlock: first, count: size, next: next, table: blocks, in: connection)
        }
        guard let row = try keys(from: index, limit: 1).first else { throw Stale() }
        return row.id
    }

    /// Steps through the blocks from one end until the one holding the wanted row. Ascending,
    /// `remaining` is its offset from the start; descending, its distance from the end (1: the
    /// last row). Returns the block's first key, the row's offset in it, the block's count, and
    /// the next block's first key when the walk has seen it (descending, past the last block: nil).
    private func walk(ascending: Bool, remaining: Int) throws -> (from: Int64, offset: Int, count: Int, next: Int64?) {
        if let loaded { return try Self.walk(loaded, ascending: ascending, remaining: remaining) }
        let statement = try connection.cachedStatement(
            ascending ? blocks.statisticsSQL.ascending : blocks.statisticsSQL.descending)
        defer { statement.reset() }
        var remaining = remaining
        var after: Int64?   // descending: the first key of the block last stepped over
        while try statement.step() {
            let (first, count) = try statement.withCurrentRow { (try $0[0, as: Int64.self], try $0[1, as: Int.self]) }
            if ascending ? remaining < count : remaining <= count {
                let next: Int64? = ascending
                    ? (try statement.step() ? try statement.withCurrentRow { try $0[0, as: Int64.self] } : nil) : after
                return (first, ascending ? remaining : count - remaining, count, next)
            }
            remaining -= count
            after = first
        }
        // Counts that do not add up (a negative one, written by another program): the table knows.
        throw Stale()
    }

    /// `walk` over blocks held in memory.
    private static func walk(_ loaded: [Block], ascending: Bool, remaining: Int) throws
        -> (from: Int64, offset: Int, count: Int, next: Int64?) {
        var remaining = remaining
        let last = loaded.count - 1
        for position in stride(from: ascending ? 0 : last, through: ascending ? last : 0, by: ascending ? 1 : -1) {
            let block = loaded[position]
            if ascending ? remaining < block.count : remaining <= block.count {
                let next = position + 1 < loaded.count ? loaded[position + 1].first : nil
                return (block.first, ascending ? remaining : block.count - remaining, block.count, next)
            }
            remaining -= block.count
        }
        throw Stale()
    }

    /// The index of the row with key `position` and id `id`: the rows of the blocks before its
    /// block, summed, plus those before it in its block, counted in the position index.
    func index(of position: Int64, id: Int64) throws -> Int {
        let first: Int64?, before: Int
        if isExact {
            (first, before) = (OrderBlocks.origin, 0)
        } else if let loaded {
            // The last block starting at or below the key, and the rows of those before it.
            let holding = loaded.lastIndex { $0.first <= position }
            first = holding.map { loaded[$0].first }
            before = holding.map { loaded[..<$0].reduce(0) { $0 + $1.count } } ?? 0
            if let ids, let holding {
                let block = loaded[holding]
                let next = holding + 1 < loaded.count ? loaded[holding + 1].first : nil
                guard let offset = try ids.ids(ofBlock: block.first, count: block.count, next: next, table: blocks, in: connection)
                    .firstIndex(of: id) else { throw Stale() }
                return before + offset
            }
            // A key in the upper half of its block's key range (keys are spread about evenly in a
            // block): count the rows from it to the block's end instead, and take them from the
            // block's count. Either way is right; this one steps over fewer rows.
            if let holding, holding + 1 < loaded.count {
                let block = loaded[holding], next = loaded[holding + 1].first
                if Int128(position) - Int128(block.first) > (Int128(next) - Int128(block.first)) / 2 {
                    let after = try connection.scalar(
                        blocks.statisticsSQL.countAfterInBlock, position, next, position, id, as: Int.self) ?? 0
                    guard after > 0, after <= block.count else { throw Stale() }
                    return before + block.count - after
                }
            }
        } else {
            first = try connection.scalar(blocks.statisticsSQL.blockOf, position, as: Int64.self)
            before = first == nil ? 0 : try connection.scalar(blocks.statisticsSQL.countBefore, first, as: Int.self) ?? 0
        }
        guard let first else { throw Stale() }
        let inBlock = try connection.scalar(
            blocks.statisticsSQL.countInBlock, first, position, position, id, as: Int.self) ?? 0
        guard before + inBlock < count else { throw Stale() }
        return before + inBlock
    }
}
