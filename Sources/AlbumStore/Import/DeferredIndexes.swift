internal import AlbumSQLite

/// The indexes of a table set aside while a bulk import fills it, and built again at the end.
///
/// Why: a million rows inserted into a B-tree in random key order (an artist, a match key
/// hash) touch a random leaf each, and once the indexes outgrow SQLite's page cache every
/// insert reads and writes pages: measured here, 38 s for 1,000,000 albums into the five
/// indexes of `albums`, against 5.7 s when the indexes are dropped and created afterwards
/// (SQLite then sorts the keys once). Only for an import into an empty table, where building
/// them costs what the rows cost; the indexes are created from the exact SQL `sqlite_schema`
/// held, so the schema reads as before, and all of it is inside the import's transaction (a
/// rollback puts them back untouched).
struct DeferredIndexes {
    /// The indexes set aside, in schema order: name and the statement that created them.
    private let indexes: [(name: String, sql: String)]

    /// Drops the indexes of `table` other than those named in `keeping` (and the automatic
    /// ones, which have no SQL).
    init(table: String, keeping: Set<String>, in connection: Connection) throws {
        indexes = try connection.query(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY rowid",
            table
        ) { (name: try $0[0, as: String.self], sql: try $0[1, as: String.self]) }
            .filter { !keeping.contains($0.name) }
        for index in indexes { try connection.execute("DROP INDEX \(ChangeLogTriggers.identifier(index.name))") }
    }

    /// Creates the index named `name` again now (the others wait for `restore`).
    func restore(_ name: String, in connection: Connection) throws {
        for index in indexes where index.name == name { try connection.execute(index.sql) }
    }

    /// Creates the indexes not yet restored.
    ///
    /// With SQLite's default page cache: a larger one for the sort (16 or 32 MiB) measured
    /// slower here, and costs its size in memory.
    func restore(except restored: Set<String>, in connection: Connection) throws {
        for index in indexes where !restored.contains(index.name) { try connection.execute(index.sql) }
    }

    /// Whether `name` was set aside.
    func contains(_ name: String) -> Bool { indexes.contains { $0.name == name } }
}
