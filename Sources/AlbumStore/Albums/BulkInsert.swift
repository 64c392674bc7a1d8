internal import AlbumSQLite

/// A bulk insert into one table with its per-row insert triggers set aside: the change log's
/// (the rows are logged as range entries, `ChangeLog.bulk`) and its followers'
/// (`InsertFollower`), which are brought up to date over the new rows in bulk.
///
/// The body reports each batch of new rows with `inserted(_:)`, and calls `catchUp()` before
/// it updates or deletes rows of the table: the followers' update and delete triggers, still
/// in place, must find every row they follow. At the end the followers catch up and the
/// triggers are created again from the exact SQL `sqlite_schema` held, so the schema reads as
/// before. All of it runs in the caller's transaction: a rollback puts the triggers back
/// untouched. Triggers the library does not know (someone's own) are never set aside.
final class BulkInsert {
    private let connection: Connection
    private let followers: [any InsertFollower]
    /// The triggers set aside: name and the statement that created them, in schema order.
    private let triggers: [(name: String, sql: String)]
    /// Rows inserted that the followers have not caught up with.
    private var pending = RowIDs()

    /// Runs `body`, which inserts many rows into `table` and returns their ids, with the
    /// triggers aside; logs the rows as ranges and brings the followers up to date.
    static func run(
        into table: TableDescription, followers: [any InsertFollower]? = nil, in connection: Connection,
        _ body: (BulkInsert) throws -> RowIDs
    ) throws -> RowIDs {
        let bulk = try BulkInsert(table: table, followers: followers ?? table.insertFollowers, in: connection)
        return try ChangeLog.bulk(.insert, table, in: connection) {
            let ids = try body(bulk)
            try bulk.finish()
            return ids
        }
    }

    private init(table: TableDescription, followers: [any InsertFollower], in connection: Connection) throws {
        self.connection = connection
        self.followers = followers
        let names = Set([ChangeLogTriggers.name(of: table.name, .insert)] + followers.flatMap(\.insertTriggers))
        triggers = try connection.query(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ? AND sql IS NOT NULL ORDER BY rowid",
            table.name
        ) { (name: try $0[0, as: String.self], sql: try $0[1, as: String.self]) }
            .filter { names.contains($0.name) }
        for trigger in triggers { try connection.execute("DROP TRIGGER \(ChangeLogTriggers.identifier(trigger.name))") }
    }

    /// Records rows just inserted.
    func inserted(_ ids: ClosedRange<Int64>) {
        pending.insert(ids)
    }

    /// Brings the followers up to date with the rows inserted so far. Call it before updating
    /// or deleting rows of the table.
    func catchUp() throws {
        guard !pending.isEmpty else { return }
        for follower in followers { try follower.catchUp(inserted: pending, in: connection) }
        pending = RowIDs()
    }

    private func finish() throws {
        try catchUp()
        for trigger in triggers { try connection.execute(trigger.sql) }
    }
}
