import CSQLite
import Foundation
@testable import AlbumSQLite
import Testing
import TestSupport

/// `Changeset.apply(to:)` runs the common case through the connection's cached statements and
/// leaves everything else to `sqlite3changeset_apply`: the outcome must be the session
/// extension's either way, without expiring the connection's prepared statements.
struct ChangesetApplyTests {
    let directory: TemporaryDirectory
    let connection: Connection

    init() throws {
        directory = try TemporaryDirectory()
        connection = try directory.open()
    }

    private func record(_ tables: [String], _ body: () throws -> Void) throws -> Changeset {
        let recorder = try ChangeRecorder(connection: connection, tables: tables)
        try body()
        return try recorder.changeset()
    }

    private func rows(_ table: String) throws -> [[SQLiteValue]] {
        try connection.query("SELECT * FROM \(table) ORDER BY 1, 2") { $0.values }
    }

    @Test func applyingLeavesTheCachedStatementsPrepared() throws {
        try connection.execute("CREATE TABLE albums(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
        try connection.run("INSERT INTO albums VALUES (1, 'Low')")
        let count = try connection.cachedStatement("SELECT count(*) FROM albums")
        _ = try count.step()
        count.reset()
        let changeset = try record(["albums"]) {
            try connection.run("INSERT INTO albums VALUES (2, 'Heroes')")
            try connection.run("UPDATE albums SET title = 'Low (1991)' WHERE id = 1")
        }

        try changeset.inverted().apply(to: connection)
        try changeset.apply(to: connection)
        try changeset.inverted().apply(to: connection)

        #expect(try connection.scalar("SELECT count(*) FROM albums", as: Int.self) == 1)
        // sqlite3changeset_apply runs PRAGMA defer_foreign_keys, which expires every prepared
        // statement of the connection: each would be compiled again on its next step.
        #expect(sqlite3_stmt_status(count.handle, SQLITE_STMTSTATUS_REPREPARE, 0) == 0)
        #expect(try rows("albums") == [[.integer(1), .text("Low")]])
    }

    @Test func aTableWithAQuotedNameAndACompositeTextKeyIsAppliedExactly() throws {
        // The table `tab "one"`, quoted in SQL.
        let table = "\"tab \"\"one\"\"\""
        try connection.execute("""
            CREATE TABLE \(table) ("first name" TEXT, "last" TEXT, "n" INTEGER, "v" BLOB,
                PRIMARY KEY ("last", "first name")) WITHOUT ROWID
            """)
        try connection.run("INSERT INTO \(table) VALUES ('David', 'Bowie', 1, x'00')")
        try connection.run("INSERT INTO \(table) VALUES ('Brian', 'Eno', NULL, NULL)")
        let before = try rows(table)
        let changeset = try record(["tab \"one\""]) {
            try connection.run("INSERT INTO \(table) VALUES ('Robert', 'Fripp', 3, x'0102')")
            try connection.run("UPDATE \(table) SET n = 2, v = NULL WHERE \"first name\" = 'David'")
            try connection.run("DELETE FROM \(table) WHERE \"last\" = 'Eno'")
        }
        let after = try rows(table)
        #expect(after.count == 2)

        try changeset.inverted().apply(to: connection)
        #expect(try rows(table) == before)
        try changeset.apply(to: connection)
        #expect(try rows(table) == after)
    }

    @Test func hostileTextAndBytesComeBackExactly() throws {
        try connection.execute("CREATE TABLE albums(id INTEGER PRIMARY KEY, title TEXT, cover BLOB, rating REAL)")
        let title = "\u{1B}[31mred\u{0}nul\n👩‍👩‍👧 東京 " + String(repeating: "x", count: 100_000)
        try connection.run("INSERT INTO albums VALUES (1, ?, ?, ?)", title, Data([0, 255, 0, 10]), -0.0)
        let before = try rows("albums")
        let changeset = try record(["albums"]) {
            try connection.run("UPDATE albums SET title = 'plain', cover = NULL WHERE id = 1")
            try connection.run("INSERT INTO albums VALUES (2, ?, x'', 1e308)", title)
        }
        try changeset.inverted().apply(to: connection)
        #expect(try rows("albums") == before)
        #expect(try connection.scalar("SELECT title FROM albums WHERE id = 1", as: String.self) == title)
    }

    @Test func anUpdateSetsOnlyTheColumnsItChanged() throws {
        try connection.execute("""
            CREATE TABLE albums(id INTEGER PRIMARY KEY, title TEXT, year INTEGER);
            CREATE TABLE log(message TEXT);
            CREATE TRIGGER year_changed AFTER UPDATE OF year ON albums BEGIN INSERT INTO log VALUES ('year'); END;
            INSERT INTO albums VALUES (1, 'Low', 1977);
            """)
        let changeset = try record(["albums"]) { try connection.run("UPDATE albums SET title = 'Heroes' WHERE id = 1") }

        try changeset.inverted().apply(to: connection)

        #expect(try rows("albums") == [[.integer(1), .text("Low"), .integer(1977)]])
        #expect(try connection.scalar("SELECT count(*) FROM log", as: Int.self) == 0)
    }

    @Test func aUniqueValueHandedOnIsUndoneWhateverOrderTheChangesComeIn() throws {
        try connection.execute("CREATE TABLE tags(id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
        try connection.run("INSERT INTO tags VALUES (1, 'a'), (2, 'b')")
        let changeset = try record(["tags"]) {
            try connection.run("UPDATE tags SET name = 'x' WHERE id = 1")
            try connection.run("UPDATE tags SET name = 'a' WHERE id = 2")
        }
        // Undoing row 1 before row 2 meets row 2's 'a': the session extension retries it after
        // the other changes, and the applier backs out to it rather than fail.
        try changeset.inverted().apply(to: connection)
        #expect(try rows("tags") == [[.integer(1), .text("a")], [.integer(2), .text("b")]])
        try changeset.apply(to: connection)
        #expect(try rows("tags") == [[.integer(1), .text("x")], [.integer(2), .text("a")]])
        #expect(!connection.isInTransaction)
    }

    @Test func aSwapOfUniqueValuesFailsAsInTheSessionExtension() throws {
        try connection.execute("CREATE TABLE tags(id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
        try connection.run("INSERT INTO tags VALUES (1, 'a'), (2, 'b')")
        let changeset = try record(["tags"]) {
            try connection.run("UPDATE tags SET name = 'tmp' WHERE id = 1")
            try connection.run("UPDATE tags SET name = 'a' WHERE id = 2")
            try connection.run("UPDATE tags SET name = 'b' WHERE id = 1")
        }
        // Neither row can take its old value first, retried or not.
        let error = try #require(throws: SQLiteError.self) { try changeset.inverted().apply(to: connection) }
        #expect(error.message == "cannot apply change to tags: a constraint would fail")
        #expect(try rows("tags") == [[.integer(1), .text("b")], [.integer(2), .text("a")]])
        #expect(!connection.isInTransaction)
    }

    @Test func foreignKeysAreCheckedAtTheEndAsTheSessionExtensionDefersThem() throws {
        try connection.execute("""
            PRAGMA foreign_keys = ON;
            CREATE TABLE child(id INTEGER PRIMARY KEY, parent INTEGER NOT NULL REFERENCES parent(id));
            CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT);
            INSERT INTO parent VALUES (1, 'p');
            INSERT INTO child VALUES (10, 1);
            """)
        let changeset = try record(["child", "parent"]) {
            try connection.run("DELETE FROM child WHERE id = 10")
            try connection.run("DELETE FROM parent WHERE id = 1")
        }
        // The inverse inserts the child before its parent.
        try changeset.inverted().apply(to: connection)
        #expect(try rows("parent") == [[.integer(1), .text("p")]])
        #expect(try rows("child") == [[.integer(10), .integer(1)]])
    }

    @Test func aConflictAfterSomeChangesWentThroughLeavesNothingApplied() throws {
        try connection.execute("CREATE TABLE albums(id INTEGER PRIMARY KEY, title TEXT)")
        for id in 1...5 { try connection.run("INSERT INTO albums VALUES (?, ?)", id, "Album \(id)") }
        let changeset = try record(["albums"]) {
            try connection.run("UPDATE albums SET title = title || '!'")
            try connection.run("DELETE FROM albums WHERE id = 5")
        }
        try connection.run("UPDATE albums SET title = 'Edited' WHERE id = 4")
        let before = try rows("albums")

        let error = try #require(throws: SQLiteError.self) { try changeset.inverted().apply(to: connection) }
        #expect(error.extendedCode == SQLITE_ABORT)
        #expect(error.message == "cannot apply change to albums: the row changed since")
        #expect(try rows("albums") == before)
        #expect(!connection.isInTransaction)
    }
}
