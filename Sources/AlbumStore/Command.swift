internal import AlbumSQLite

/// A command being performed: the writer connection, inside the command's transaction.
final class Command {
    let connection: Connection
    /// The change log cursor when the transaction began (the state the command starts from).
    private let startCursor: Int64
    /// The connection's count of changed rows then: while it stays, so does the cursor (every
    /// change log entry is a row changed on this connection, which holds the write lock).
    private let startChanges: Int

    init(connection: Connection, startCursor: Int64) {
        self.connection = connection
        self.startCursor = startCursor
        startChanges = connection.totalChanges
    }

    /// The change log cursor now, inside the transaction: the start cursor, without a query,
    /// until the command changes a row.
    func latestCursor() throws -> Int64 {
        connection.totalChanges == startChanges ? startCursor : try ChangeLog.latestCursor(in: connection)
    }

    /// The order statistics of the list as it is now in the transaction: the library made them
    /// right when the transaction began, and the triggers keep them so as the command changes
    /// rows. Its `count` is the count when asked.
    func order() throws -> OrderStatistics {
        try OrderStatistics(in: connection)
    }
}
