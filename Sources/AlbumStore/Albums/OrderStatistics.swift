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

    let connection: Connection
    let blocks: OrderBlocks
    /// Whether the answers come from the table alone (the counts cannot be trusted).
    let isExact: Bool
    /// How many rows the list holds.
    let count: Int

    /// The statistics for what `connection` reads now; `exact` ignores the stored counts.
    init(in connection: Connection, blocks: OrderBlocks = .albums, exact: Bool = false) throws {
        self.connection = connection
        self.blocks = blocks
        isExact = try exact || !blocks.areChecked(in: connection)
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
        if index < count / 2 { return try walk(ascending: true, remaining: index) }
        return try walk(ascending: false, remaining: count - index)
    }

    /// Steps through the blocks from one end until the one holding the wanted row. Ascending,
    /// `remaining` is its offset from the start; descending, its distance from the end (1: the
    /// last row).
    private func walk(ascending: Bool, remaining: Int) throws -> (from: Int64, offset: Int) {
        let statement = try connection.cachedStatement(
            ascending ? blocks.statisticsSQL.ascending : blocks.statisticsSQL.descending)
        defer { statement.reset() }
        var remaining = remaining
        while try statement.step() {
            let (first, count) = try statement.withCurrentRow { (try $0[0, as: Int64.self], try $0[1, as: Int.self]) }
            if ascending ? remaining < count : remaining <= count {
                return (first, ascending ? remaining : count - remaining)
            }
            remaining -= count
        }
        // Counts that do not add up (a negative one, written by another program): the table knows.
        throw Stale()
    }

    /// The index of the row with key `position` and id `id`: the rows of the blocks before its
    /// block, summed, plus those before it in its block, counted in the position index.
    func index(of position: Int64, id: Int64) throws -> Int {
        let first = isExact ? OrderBlocks.origin
            : try connection.scalar(blocks.statisticsSQL.blockOf, position, as: Int64.self)
        guard let first else { throw Stale() }
        let before = isExact ? 0
            : try connection.scalar(blocks.statisticsSQL.countBefore, first, as: Int.self) ?? 0
        let inBlock = try connection.scalar(
            blocks.statisticsSQL.countInBlock, first, position, position, id, as: Int.self) ?? 0
        guard before + inBlock < count else { throw Stale() }
        return before + inBlock
    }
}
