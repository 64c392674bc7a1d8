internal import AlbumSQLite

/// Data that AFTER INSERT triggers derive from a table's rows (a full-text index, order
/// statistics): a bulk insert sets those triggers aside and brings the data up to date in a
/// few statements over the new rows instead (`BulkInsert`).
///
/// Why: a trigger costs a program run per row, even one whose WHEN clause says to do nothing;
/// for a million imported rows that is seconds, where one `INSERT … SELECT` over the new ids
/// costs a fraction. The follower's UPDATE and DELETE triggers stay in place: `BulkInsert`
/// catches the followers up before the table's rows are updated or deleted, so those triggers
/// always find the rows they expect.
protocol InsertFollower: Sendable {
    /// The table whose inserts it follows.
    var table: String { get }
    /// The names of the AFTER INSERT triggers on `table` that keep the data row by row.
    var insertTriggers: [String] { get }
    /// Brings the data up to date with `ids`, rows inserted while those triggers were aside.
    func catchUp(inserted ids: RowIDs, in connection: Connection) throws
}

/// The followers of every table's inserts. A structure kept by insert triggers plugs in here.
enum InsertFollowers {
    static let all: [any InsertFollower] = [OrderBlocks.albums, SearchIndex(), PlannerStatistics()]
}

extension TableDescription {
    /// The followers of this table's inserts.
    var insertFollowers: [any InsertFollower] { InsertFollowers.all.filter { $0.table == name } }
}
