import Synchronization
internal import AlbumSQLite

/// The album ids of the order statistics' blocks, in list order, read as lookups land in a block
/// and kept with the blocks in `OrderBlocksCache` for as long as no album changes: saving the
/// current album then finds the id at an index in memory, where a lookup in SQL (a seek into the
/// position index, then stepping from the nearer end of the block) cost more than the rest of
/// the save, in instructions and in cache misses on the index's pages.
///
/// A block is read from whichever end is nearer the row wanted, up to `readAhead` rows past it,
/// and from there on as later lookups need: a first lookup reads a quarter of the block's 4,096
/// rows on average (about 0.1 ms), and the block is whole once lookups have reached every part
/// of it. At most `limit` ids are held (by default 2 million, 16 MB: every block of a library of
/// 2 million albums), the blocks read first dropped first past it. Used only under the writer,
/// in navigation writes.
final class BlockIDs: Sendable {
    /// How many ids are held at most, over all blocks.
    let limit: Int
    /// Rows read past the one a lookup wants, for the lookups next to it.
    static let readAhead = 256

    init(limit: Int = 2_000_000) {
        self.limit = limit
    }

    /// The ids read of one block: a run from its start and a run back from its end, in list
    /// order; the whole block once they meet.
    private struct Known {
        var head: [Int64] = []
        var tail: [Int64] = []
        let count: Int

        var held: Int { head.count + tail.count }

        /// Once the runs meet, the whole block in `head`.
        mutating func joinIfWhole() {
            guard held == count, !tail.isEmpty else { return }
            head += tail
            tail = []
        }

        func id(at offset: Int) -> Int64? {
            if offset < head.count { return head[offset] }
            let tailStart = count - tail.count
            return offset >= tailStart && offset < count ? tail[offset - tailStart] : nil
        }
    }

    private struct Held {
        /// By the first key of their block.
        var byBlock: [Int64: Known] = [:]
        /// Blocks in the order they were first read, for dropping the oldest.
        var order: [Int64] = []
        var count = 0
    }

    private let held = Mutex(Held())

    /// The id of the row at `offset` in the block starting at `first`, of `count` rows (`next`:
    /// the next block's first key, `nil` for the last block), read now if it is not held.
    /// - Throws: `OrderStatistics.Stale` when the block holds fewer rows than `count` says.
    func id(at offset: Int, inBlock first: Int64, count: Int, next: Int64?, table blocks: OrderBlocks,
            in connection: Connection) throws -> Int64 {
        var known = held.withLock { $0.byBlock[first] } ?? Known(count: count)
        if let id = known.id(at: offset) { return id }
        try read(&known, toReach: offset, from: first, next: next, table: blocks, in: connection)
        keep(known, for: first)
        guard let id = known.id(at: offset) else { throw OrderStatistics.Stale() }
        return id
    }

    /// Every id of the block starting at `first`, in list order (see `id(at:inBlock:)`).
    func ids(ofBlock first: Int64, count: Int, next: Int64?, table blocks: OrderBlocks, in connection: Connection) throws -> [Int64] {
        var known = held.withLock { $0.byBlock[first] } ?? Known(count: count)
        if known.held < count {
            try read(&known, toReach: nil, from: first, next: next, table: blocks, in: connection)
            keep(known, for: first)
        }
        return known.head
    }

    /// Reads the rows between the known runs from the end nearer `offset` (a row between them),
    /// up to `readAhead` rows past it; all of them when `offset` is `nil`.
    private func read(_ known: inout Known, toReach offset: Int?, from first: Int64, next: Int64?, table blocks: OrderBlocks,
                      in connection: Connection) throws {
        let sql = blocks.statisticsSQL
        func ids(_ sql: String, _ arguments: (any Bindable)?...) throws -> [Int64] {
            try connection.cachedStatement(sql).map(arguments) { try $0[0, as: Int64.self] }
        }
        let (gapStart, gapEnd) = (known.head.count, known.count - known.tail.count)
        guard let offset else {
            let read = try ids(sql.keysFrom, first, gapEnd - gapStart, gapStart)
            guard read.count == gapEnd - gapStart else { throw OrderStatistics.Stale() }
            known.head += read
            known.joinIfWhole()
            return
        }
        if offset - gapStart < gapEnd - offset {
            let wanted = min(offset - gapStart + 1 + Self.readAhead, gapEnd - gapStart)
            let read = try ids(sql.keysFrom, first, wanted, gapStart)
            guard read.count == wanted else { throw OrderStatistics.Stale() }
            known.head += read
        } else {
            let wanted = min(gapEnd - offset + Self.readAhead, gapEnd - gapStart)
            // Backwards from the next block's first key, or from the end of the list.
            let read = try next.map { try ids(sql.keysBackFrom, $0, wanted, known.tail.count) }
                ?? ids(sql.keysBackFromEnd, wanted, known.tail.count)
            guard read.count == wanted else { throw OrderStatistics.Stale() }
            known.tail = read.reversed() + known.tail
        }
        known.joinIfWhole()
    }

    /// Keeps what is known of the block starting at `first`, dropping the blocks read first while
    /// more than `limit` ids would be held.
    private func keep(_ known: Known, for first: Int64) {
        held.withLock { held in
            let before = held.byBlock.updateValue(known, forKey: first)
            if before == nil { held.order.append(first) }
            held.count += known.held - (before?.held ?? 0)
            while held.count > limit, let index = held.order.firstIndex(where: { $0 != first }) {
                held.count -= held.byBlock.removeValue(forKey: held.order.remove(at: index))?.held ?? 0
            }
        }
    }
}
