import Synchronization
internal import AlbumSQLite

/// The album ids of the order statistics' blocks, in list order, read when a lookup first lands
/// in a block and kept with the blocks in `OrderBlocksCache` for as long as no album changes:
/// saving the current album then finds the id at an index in memory, where a lookup in SQL
/// (a seek into the position index, then stepping from the start of the block or a sample in
/// it) cost more than the rest of the save, in instructions and in cache misses on the index's
/// pages.
///
/// Reading a block costs about as much as 20 saves (0.2 to 0.7 ms for its 4,096 rows); at most
/// `limit` ids are held (by default 2 million, 16 MB: every block of a library of 2 million
/// albums), the blocks read first dropped first past it. Used only under the writer, in
/// navigation writes.
final class BlockIDs: Sendable {
    /// How many ids are held at most, over all blocks.
    let limit: Int

    init(limit: Int = 2_000_000) {
        self.limit = limit
    }

    private struct Held {
        /// Ids by the first key of their block.
        var byBlock: [Int64: [Int64]] = [:]
        /// Blocks in the order they were read, for dropping the oldest.
        var order: [Int64] = []
        var count = 0
    }

    private let held = Mutex(Held())

    /// The ids of the block starting at `first`, of `count` rows (`next`: the next block's first
    /// key, `nil` for the last block), read now if they are not held.
    /// - Throws: `OrderStatistics.Stale` when the block does not hold `count` rows.
    func ids(ofBlock first: Int64, count: Int, next: Int64?, table blocks: OrderBlocks, in connection: Connection) throws -> [Int64] {
        if let ids = held.withLock({ $0.byBlock[first] }) { return ids }
        let ids = try blocks.ids(from: first, to: next, in: connection)
        guard ids.count == count else { throw OrderStatistics.Stale() }
        held.withLock { held in
            while held.count + ids.count > limit, !held.order.isEmpty {
                held.count -= held.byBlock.removeValue(forKey: held.order.removeFirst())?.count ?? 0
            }
            held.byBlock[first] = ids
            held.order.append(first)
            held.count += ids.count
        }
        return ids
    }
}
