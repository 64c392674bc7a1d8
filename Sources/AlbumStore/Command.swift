internal import AlbumSQLite

/// A command being performed: the writer connection, inside the command's transaction.
final class Command {
    let connection: Connection
    /// The change log cursor when the transaction began (the state the command starts from).
    private let startCursor: Int64
    /// The connection's count of changed rows then: while it stays, so does the cursor (every
    /// change log entry is a row changed on this connection, which holds the write lock).
    private let startChanges: Int

    /// Set for a navigation write (`Library.navigate`), which does not check the order statistics
    /// when it begins: `order()` checks them the first time it is called, and rebuilds them
    /// with this if they turn out wrong.
    private let repairOrder: (() throws -> Void)?
    /// Whether `order()` has checked (or rebuilt) them in this navigation write.
    private var orderIsChecked = false
    /// Whether `order()` rebuilt them: the transaction must then finish them (`OrderBlocks.finish`).
    private(set) var repairedOrder = false

    /// `repairOrder`: for a navigation write, how to rebuild order statistics found wrong.
    init(connection: Connection, startCursor: Int64, repairOrder: (() throws -> Void)? = nil) {
        self.connection = connection
        self.startCursor = startCursor
        self.repairOrder = repairOrder
        startChanges = connection.totalChanges
    }

    /// The change log cursor now, inside the transaction: the start cursor, without a query,
    /// until the command changes a row.
    func latestCursor() throws -> Int64 {
        connection.totalChanges == startChanges ? startCursor : try ChangeLog.latestCursor(in: connection)
    }

    /// The order statistics of the list as it is now in the transaction: the library made them
    /// right when the transaction began, and the triggers keep them so as the command changes
    /// rows. Its `count` is the count when asked. A navigation write checks them here, the first
    /// time it needs them (its own writes never touch the albums, so they stay checked).
    func order() throws -> OrderStatistics {
        guard let repairOrder else { return try OrderStatistics(in: connection) }
        if !orderIsChecked {
            if try !OrderBlocks.albums.areChecked(in: connection) {
                try repairOrder()
                repairedOrder = true
            }
            orderIsChecked = true
        }
        return try OrderStatistics(in: connection, checked: true)
    }
}
