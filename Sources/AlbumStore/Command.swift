internal import AlbumSQLite

/// A command being performed: the writer connection, inside the command's transaction, and the
/// order index of the list as the transaction found it.
final class Command {
    let connection: Connection
    private let cache: OrderIndexCache
    /// The change log cursor when the transaction began (the state the command starts from).
    private let startCursor: Int64
    /// The connection's count of changed rows then: while it stays, so does the cursor (every
    /// change log entry is a row changed on this connection, which holds the write lock).
    private let startChanges: Int
    private var order: OrderIndex?
    /// Whether `order` describes the state at `startCursor` (asked before anything changed).
    private var orderIsFromStart = false

    init(connection: Connection, cache: OrderIndexCache, startCursor: Int64) {
        self.connection = connection
        self.cache = cache
        self.startCursor = startCursor
        startChanges = connection.totalChanges
    }

    /// The change log cursor now, inside the transaction: the start cursor, without a query,
    /// until the command changes a row.
    func latestCursor() throws -> Int64 {
        connection.totalChanges == startChanges ? startCursor : try ChangeLog.latestCursor(in: connection)
    }

    /// The order index of the list as it is now in the transaction. Ask before changing
    /// anything: an index asked for later describes the changed list and is not shared.
    func orderIndex() throws -> OrderIndex {
        if let order { return order }
        let cursor = try latestCursor()
        let unchanged = cursor == startCursor
        let index = try cache.index(in: connection, at: cursor, share: unchanged)
        order = index
        orderIsFromStart = unchanged
        return index
    }

    /// The order index of the list as the transaction found it, if known without a rebuild:
    /// the command's changeset brings it up to date.
    func indexBeforeChanges() throws -> OrderIndex? {
        if orderIsFromStart { return order }
        if order != nil { return nil }
        return try cache.sharedIndex(validAt: startCursor, in: connection)
    }
}
