internal import AlbumSQLite

/// A command being performed: the writer connection, inside the command's transaction.
final class Command {
    let connection: Connection
    /// The change log cursor when the transaction began (the state the command starts from).
    private let startCursor: Int64
    /// The connection's count of changed rows then: while it stays, so does the cursor (every
    /// change log entry is a row changed on this connection, which holds the write lock).
    private let startChanges: Int

    /// How a navigation write (`Library.navigate`) finds the order statistics itself: it does
    /// not check them when it begins, and takes them from the writer's cache when the file is
    /// as it was when they were read.
    struct Navigation {
        let cache: OrderBlocksCache
        /// The file when the write began.
        let start: OrderBlocksCache.State
        /// Rebuilds order statistics found wrong (`Library`'s repair).
        let repair: () throws -> Void
    }

    /// Set for a navigation write.
    private let navigation: Navigation?
    /// Whether the order statistics are known right in this transaction: a command's
    /// `Library.write` checked them (and rebuilt them if wrong) when it began, a navigation
    /// write's `order()` when first asked.
    private var orderIsChecked: Bool
    /// Whether `order()` rebuilt them: the transaction must then finish them (`OrderBlocks.finish`).
    private(set) var repairedOrder = false

    init(connection: Connection, startCursor: Int64, orderIsChecked: Bool = false, navigation: Navigation? = nil) {
        self.connection = connection
        self.orderIsChecked = orderIsChecked
        self.startCursor = startCursor
        self.navigation = navigation
        startChanges = connection.totalChanges
    }

    /// The change log cursor now, inside the transaction: the start cursor, without a query,
    /// until the command changes a row. A navigation write changes one row at most, whose
    /// trigger logs one entry (see `Library.navigate`), given the next sequence number: SQLite
    /// gives a new row one more than the largest row id, and the start cursor is the largest.
    func latestCursor() throws -> Int64 {
        if connection.totalChanges == startChanges { return startCursor }
        // A repair of the order statistics also changes rows (and may reinstall triggers): ask.
        guard navigation != nil, !repairedOrder, startCursor < Int64.max else { return try ChangeLog.latestCursor(in: connection) }
        assert(try! ChangeLog.latestCursor(in: connection) == startCursor + 1, "a navigation write logged more than one entry")
        return startCursor + 1
    }

    /// The order statistics of the list as it is now in the transaction: the library made them
    /// right when the transaction began, and the triggers keep them so as the command changes
    /// rows. Its `count` is the count when asked. A navigation write changes no album: it takes
    /// the blocks from the cache when they still hold, else checks them (rebuilding them if they
    /// turn out wrong) and reads them into it.
    func order() throws -> OrderStatistics {
        // Known right: asking again would only cost two reads a call.
        guard let navigation else { return try OrderStatistics(in: connection, checked: orderIsChecked) }
        if let (blocks, count, ids) = try navigation.cache.blocks(in: navigation.start, connection: connection) {
            return OrderStatistics(in: connection, loaded: blocks, count: count, ids: ids)
        }
        if !orderIsChecked {
            if try !OrderBlocks.albums.areChecked(in: connection) {
                try navigation.repair()
                repairedOrder = true
            }
            orderIsChecked = true
        }
        guard let (blocks, count) = try OrderStatistics.load(in: connection) else { return try OrderStatistics(in: connection) }
        // Rebuilt in this transaction, they are not the blocks of the file at its start.
        let ids = repairedOrder ? BlockIDs() : navigation.cache.keep(blocks, count: count, in: navigation.start)
        return OrderStatistics(in: connection, loaded: blocks, count: count, ids: ids)
    }
}
