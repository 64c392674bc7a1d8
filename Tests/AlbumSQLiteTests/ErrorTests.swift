import CSQLite
import Foundation
import AlbumSQLite
import Testing
import TestSupport

/// The codes, messages and SQL that `SQLiteError` carries.
struct ErrorTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    @Test func uniqueViolationHasConstraintCodes() throws {
        let connection = try directory.open()
        try connection.execute("CREATE TABLE albums(external_id TEXT UNIQUE)")
        try connection.run("INSERT INTO albums VALUES (?)", "abc")
        let error = try #require(throws: SQLiteError.self) {
            try connection.run("INSERT INTO albums VALUES (?)", "abc")
        }
        #expect(error.code == 19)
        #expect(error.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(error.isConstraintViolation)
        #expect(error.message.contains("UNIQUE constraint failed: albums.external_id"))
    }

    @Test func notNullViolationHasConstraintCodes() throws {
        let connection = try directory.open()
        try connection.execute("CREATE TABLE albums(title TEXT NOT NULL)")
        let error = try #require(throws: SQLiteError.self) {
            try connection.run("INSERT INTO albums VALUES (?)", nil)
        }
        #expect(error.code == 19)
        #expect(error.extendedCode == 1299)  // SQLITE_CONSTRAINT_NOTNULL
        #expect(error.message.contains("NOT NULL constraint failed: albums.title"))
    }

    @Test func syntaxErrorFromPrepareCarriesCodeMessageAndSQL() throws {
        let connection = try directory.open()
        let sql = "SELEC title FROM albums"
        let error = try #require(throws: SQLiteError.self) { _ = try connection.prepare(sql) }
        #expect(error.code == SQLITE_ERROR)
        #expect(error.extendedCode == 1)
        #expect(error.message.contains("syntax error"))
        #expect(error.sql == sql)
        #expect(!error.isConstraintViolation)
    }

    @Test func syntaxErrorFromExecuteCarriesCodeMessageAndSQL() throws {
        let connection = try directory.open()
        let sql = "CREATE TABLE ok(x); CREATE TABLEE broken(y)"
        let error = try #require(throws: SQLiteError.self) { try connection.execute(sql) }
        #expect(error.code == SQLITE_ERROR)
        #expect(error.message.contains("syntax error"))
        #expect(error.sql == sql)
    }

    @Test func missingTableErrorNamesTheTable() throws {
        let connection = try directory.open()
        let sql = "SELECT * FROM nowhere"
        let error = try #require(throws: SQLiteError.self) {
            _ = try connection.query(sql) { $0.values }
        }
        #expect(error.code == SQLITE_ERROR)
        #expect(error.message.contains("no such table: nowhere"))
        #expect(error.sql == sql)
    }

    @Test func writeAgainstAnotherConnectionsWriteTransactionIsBusy() throws {
        let holder = try directory.open()
        try holder.execute("CREATE TABLE t(x)")
        var options = ConnectionOptions()
        options.busyTimeout = .milliseconds(100)
        let waiter = try directory.open(options: options)

        try holder.execute("BEGIN IMMEDIATE")
        try holder.run("INSERT INTO t VALUES (1)")
        let error = try #require(throws: SQLiteError.self) { try waiter.run("INSERT INTO t VALUES (2)") }
        #expect(error.code == SQLITE_BUSY)
        #expect(error.code == 5)
        #expect(error.isBusy)
        try holder.execute("COMMIT")
        #expect(try waiter.scalar("SELECT group_concat(x) FROM t", as: String.self) == "1")
    }

    @Test func openingAMissingFileWithoutCreateFailsWithCantOpen() throws {
        var options = ConnectionOptions()
        options.mode = .readWrite
        let path = directory.path("missing.sqlite")
        let error = try #require(throws: SQLiteError.self) { _ = try Connection(path: path, options: options) }
        #expect(error.code == SQLITE_CANTOPEN)
        #expect(error.message.contains(path))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func descriptionNamesCodeMessageAndSQL() throws {
        let connection = try directory.open()
        let sql = "SELEC 1"
        let error = try #require(throws: SQLiteError.self) { _ = try connection.prepare(sql) }
        #expect(error.description.contains("SQLite error 1"))
        #expect(error.description.contains(error.message))
        #expect(error.description.contains(sql))
    }
}
