import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// The change-log triggers as `ChangeLogTriggers` generates them from a table description.
struct ChangeLogTriggersTests {
    let directory: TemporaryDirectory
    var url: URL { directory.file("library.sqlite") }

    init() throws { directory = try TemporaryDirectory() }

    static let insertAlbum = "INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (1, 'Low', 'David Bowie', 0, 0)"

    @Test func theAlbumsTriggersLogUnderTheNewestEntrysNumberWithQuotedNames() {
        let triggers = ChangeLogTriggers(table: "albums", rowIDColumn: "id").triggers

        #expect(triggers.map(\.name) == ["albums_log_insert", "albums_log_update", "albums_log_delete"])
        #expect(triggers.map(\.sql) == [
            """
            CREATE TRIGGER "albums_log_insert" AFTER INSERT ON "albums" WHEN (SELECT bulk FROM change_control) = 0
            BEGIN
                INSERT INTO change_log (tx, table_name, operation, row_id, at)
                VALUES (coalesce((SELECT tx FROM change_log ORDER BY seq DESC LIMIT 1), 0), 'albums', 'insert', NEW."id",
                        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
            END
            """,
            """
            CREATE TRIGGER "albums_log_update" AFTER UPDATE ON "albums"
            BEGIN
                INSERT INTO change_log (tx, table_name, operation, row_id, at)
                VALUES (coalesce((SELECT tx FROM change_log ORDER BY seq DESC LIMIT 1), 0), 'albums', 'update', NEW."id",
                        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
            END
            """,
            """
            CREATE TRIGGER "albums_log_delete" AFTER DELETE ON "albums" WHEN (SELECT bulk FROM change_control) = 0
            BEGIN
                INSERT INTO change_log (tx, table_name, operation, row_id, at)
                VALUES (coalesce((SELECT tx FROM change_log ORDER BY seq DESC LIMIT 1), 0), 'albums', 'delete', OLD."id",
                        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
            END
            """,
        ])
    }

    @Test func generatedTriggersLogWhatTheHandWrittenOnesDidUnderTheNewestNumber() throws {
        let former = directory.file("former.sqlite")
        _ = try FormerLibrary.make(at: former)
        _ = try Library.open(at: url)
        #expect(try logTriggers(in: former.path) != logTriggers(in: url.path))

        // The same writes, by another connection, on each file: plain rows, bulk work (not
        // logged per row), a new transaction number for the hand-written triggers (the counter
        // they read), REPLACE (a delete and an insert), and a DELETE without WHERE (no truncate
        // shortcut on a table with triggers).
        let writes = """
            \(Self.insertAlbum); \(Self.insertAlbum);
            UPDATE albums SET year = 1977 WHERE id = 1;
            DELETE FROM albums WHERE id = 2;
            UPDATE change_control SET bulk = 1;
            \(Self.insertAlbum); DELETE FROM albums WHERE id = 2;
            UPDATE change_control SET bulk = 0;
            UPDATE change_control SET tx = tx + 1;
            REPLACE INTO albums (id, position, title, artist, created_at, updated_at) VALUES (1, 5, 'Heroes', 'David Bowie', 0, 0);
            \(Self.insertAlbum);
            DELETE FROM albums;
            """
        var logs: [[String]] = []
        for file in [former, url] {
            let connection = try Connection(path: file.path)
            let start = Date().millisecondsSince1970
            try connection.execute(writes)
            logs.append(try connection.query("""
                SELECT tx || ' ' || table_name || ' ' || operation || ' ' || row_id || ' ' || ifnull(last_row_id, '-')
                    || ' ' || (at BETWEEN ? - 1000 AND ? + 1000)
                FROM change_log ORDER BY seq
                """, start, Date().millisecondsSince1970) { try $0[0, as: String.self] })
        }

        #expect(logs[0] == [
            "0 albums insert 1 - 1", "0 albums insert 2 - 1", "0 albums update 1 - 1", "0 albums delete 2 - 1",
            "1 albums delete 1 - 1", "1 albums insert 1 - 1", "1 albums insert 2 - 1",
            "1 albums delete 1 - 1", "1 albums delete 2 - 1",
        ])
        // The same entries. Their number is the newest entry's (0 in an empty log): a writer
        // outside the library numbers nothing, and the counter the old triggers read is gone.
        let entry = { (line: String) in line.drop { $0 != " " } }
        #expect(logs[1].map(entry) == logs[0].map(entry))
        #expect(Set(logs[1].map { $0.prefix { $0 != " " } }) == ["0"])
    }

    @Test func namesAreQuotedSoAnyTableAndColumnNameWorks() throws {
        let name = #"my "odd" table's"#
        let migration = Migration(version: 1000, name: "odd", sql: #"""
            CREATE TABLE "my ""odd"" table's" ("row id" INTEGER PRIMARY KEY, body TEXT);
            """#)
        let migrator = Migrator(
            migrations: Migration.embedded + [migration],
            tables: TableDescription.all + [TableDescription(name: name, undo: .none, isObserved: true, order: nil)])
        _ = try Library.open(at: url, migrator: migrator)

        let connection = try Connection(path: url.path)
        try connection.run(#"INSERT INTO "my ""odd"" table's" ("row id", body) VALUES (42, 'x')"#)
        try connection.run(#"UPDATE "my ""odd"" table's" SET body = 'y'"#)
        try connection.run(#"DELETE FROM "my ""odd"" table's""#)

        #expect(try connection.query("SELECT table_name || ' ' || operation || ' ' || row_id FROM change_log ORDER BY seq") {
            try $0[0, as: String.self]
        } == [#"my "odd" table's insert 42"#, #"my "odd" table's update 42"#, #"my "odd" table's delete 42"#])
        // SQLite keeps the SQL as generated, so the next open finds nothing to do.
        #expect(try migrator.triggers.plan(in: connection).isEmpty)
    }

    @Test func aTableWithoutAnIntegerPrimaryKeyLogsItsRowid() throws {
        let migration = Migration(version: 1000, name: "tags", sql: "CREATE TABLE tags (name TEXT PRIMARY KEY, colour TEXT);")
        _ = try Library.open(at: url, migrator: Migrator(
            migrations: Migration.embedded + [migration],
            tables: TableDescription.all + [TableDescription(name: "tags", undo: .none, isObserved: true, order: nil)]))

        let connection = try Connection(path: url.path)
        try connection.run("INSERT INTO tags (rowid, name) VALUES (7, 'jazz')")
        try connection.run("DELETE FROM tags WHERE name = 'jazz'")

        #expect(try connection.query("SELECT operation || ' ' || row_id FROM change_log WHERE table_name = 'tags' ORDER BY seq") {
            try $0[0, as: String.self]
        } == ["insert 7", "delete 7"])
    }

    @Test func aWithoutRowIDTableWithoutAnIntegerKeyIsRefusedAndItsMigrationRolledBack() throws {
        let latest = try #require(Migration.embedded.last).version
        let migration = Migration(
            version: 1000, name: "keyed", sql: "CREATE TABLE keyed (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;")
        let migrator = Migrator(
            migrations: Migration.embedded + [migration],
            tables: TableDescription.all + [TableDescription(name: "keyed", undo: .none, isObserved: true, order: nil)])

        let error = #expect(throws: SchemaError.self) { try Library.open(at: url, migrator: migrator) }

        guard case let .migrationFailed(_, fileName, version, reason)? = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(fileName == "1000_keyed" && version == latest)
        #expect(reason.hasPrefix("table keyed cannot be observed: it is a WITHOUT ROWID table"))
        let connection = try Connection(path: url.path)
        #expect(try connection.scalar("PRAGMA user_version", as: Int.self) == latest)
        #expect(try connection.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'keyed'", as: Int.self) == 0)
    }
}

/// The change-log triggers in the file at `path`, by name: `<table>_log_<operation>` and any
/// other trigger named `*_log_*`.
func logTriggers(in path: String) throws -> [String: String] {
    let rows = try Connection(path: path).query(
        "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND name GLOB '*_log_*'"
    ) { (try $0[0, as: String.self], try $0[1, as: String.self]) }
    return Dictionary(uniqueKeysWithValues: rows)
}

/// The triggers `ChangeLogTriggers` generates for `table`, by name.
func generatedTriggers(_ table: String, rowIDColumn: String = "id", numbersEachEntry: Bool = false) -> [String: String] {
    Dictionary(uniqueKeysWithValues: ChangeLogTriggers(table: table, rowIDColumn: rowIDColumn, numbersEachEntry: numbersEachEntry)
        .triggers.map { ($0.name, $0.sql) })
}
