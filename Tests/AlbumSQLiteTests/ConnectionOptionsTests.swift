import CSQLite
import Foundation
import AlbumSQLite
import Testing
import TestSupport

/// What `ConnectionOptions` does to a connection and to the file.
struct ConnectionOptionsTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// Bytes 18 and 19 of the header: 1 for a rollback journal, 2 for WAL.
    private func fileFormatVersions(_ path: String) throws -> [UInt8] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return [data[18], data[19]]
    }

    /// A closed database file in rollback-journal (DELETE) mode with one table and one row.
    private func makeRollbackJournalFile() throws -> String {
        var options = ConnectionOptions()
        options.journalMode = .delete
        let connection = try directory.open("legacy.sqlite", options: options)
        try connection.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        return connection.path
    }

    @Test func defaultJournalModeOnAFileIsWAL() throws {
        let connection = try directory.open()
        #expect(try connection.scalar("PRAGMA journal_mode", as: String.self) == "wal")
        try connection.execute("CREATE TABLE t(x)")
        #expect(try fileFormatVersions(connection.path) == [2, 2])
    }

    @Test func foreignKeysAreOnByDefault() throws {
        let connection = try directory.open()
        #expect(try connection.scalar("PRAGMA foreign_keys", as: Bool.self) == true)
    }

    @Test func foreignKeyViolationIsRefusedByDefault() throws {
        let connection = try directory.open()
        try connection.execute("""
            CREATE TABLE artists(id INTEGER PRIMARY KEY);
            CREATE TABLE albums(artist_id INTEGER REFERENCES artists(id));
            """)
        let error = try #require(throws: SQLiteError.self) { try connection.run("INSERT INTO albums VALUES (?)", 99) }
        #expect(error.extendedCode == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
    }

    @Test func foreignKeysCanBeTurnedOff() throws {
        var options = ConnectionOptions()
        options.foreignKeys = false
        let connection = try directory.open(options: options)
        #expect(try connection.scalar("PRAGMA foreign_keys", as: Bool.self) == false)
    }

    @Test func defaultBusyTimeoutIsFiveSeconds() throws {
        let connection = try directory.open()
        #expect(try connection.scalar("PRAGMA busy_timeout", as: Int.self) == 5000)
    }

    @Test(arguments: [Duration.milliseconds(250), .seconds(2), .milliseconds(1500)])
    func busyTimeoutIsApplied(timeout: Duration) throws {
        var options = ConnectionOptions()
        options.busyTimeout = timeout
        let connection = try directory.open(options: options)
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        #expect(try connection.scalar("PRAGMA busy_timeout", as: Int64.self) == milliseconds)
    }

    @Test func busyWriterWaitsForTheBusyTimeoutBeforeFailing() throws {
        let holder = try directory.open()
        try holder.execute("CREATE TABLE t(x)")
        var options = ConnectionOptions()
        options.busyTimeout = .milliseconds(300)
        let waiter = try directory.open(options: options)
        try holder.execute("BEGIN IMMEDIATE")
        defer { try? holder.execute("ROLLBACK") }

        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: SQLiteError.self) { try waiter.run("INSERT INTO t VALUES (1)") }
        #expect(clock.now - start >= .milliseconds(250))
    }

    @Test func defaultSynchronousIsNormal() throws {
        let connection = try directory.open()
        #expect(try connection.scalar("PRAGMA synchronous", as: Int.self) == 1)
    }

    @Test func readOnlyModeRefusesWrites() throws {
        let path = try makeRollbackJournalFile()
        var options = ConnectionOptions()
        options.mode = .readOnly
        let connection = try Connection(path: path, options: options)
        #expect(connection.isReadOnly)
        #expect(try connection.scalar("SELECT count(*) FROM t", as: Int.self) == 1)
        let error = try #require(throws: SQLiteError.self) { try connection.run("INSERT INTO t VALUES (2)") }
        #expect(error.code == SQLITE_READONLY)
    }

    @Test func readOnlyModeReadsAWALFileWithoutChangingItsMode() throws {
        do {
            let writer = try directory.open()
            try writer.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        }
        var options = ConnectionOptions()
        options.mode = .readOnly
        let connection = try directory.open(options: options)
        #expect(try connection.scalar("SELECT count(*) FROM t", as: Int.self) == 1)
        #expect(try connection.scalar("PRAGMA journal_mode", as: String.self) == "wal")
    }

    @Test func queryOnlyRefusesWrites() throws {
        let writer = try directory.open()
        try writer.execute("CREATE TABLE t(x)")
        var options = ConnectionOptions()
        options.queryOnly = true
        let connection = try directory.open(options: options)
        let error = try #require(throws: SQLiteError.self) { try connection.run("INSERT INTO t VALUES (1)") }
        #expect(error.code == SQLITE_READONLY)
    }

    @Test
    func queryOnlyConnectionReportsReadOnly() throws {
        var options = ConnectionOptions()
        options.queryOnly = true
        let connection = try directory.open(options: options)
        #expect(connection.isReadOnly)
    }

    @Test func readWriteConnectionIsNotReadOnly() throws {
        let connection = try directory.open()
        #expect(!connection.isReadOnly)
    }

    @Test func nilJournalModeLeavesARollbackJournalFileUntouched() throws {
        let path = try makeRollbackJournalFile()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect([before[18], before[19]] == [1, 1])

        var options = ConnectionOptions()
        options.journalMode = nil
        do {
            let connection = try Connection(path: path, options: options)
            #expect(try connection.scalar("PRAGMA journal_mode", as: String.self) == "delete")
            #expect(try connection.scalar("SELECT count(*) FROM t", as: Int.self) == 1)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func defaultJournalModeTurnsARollbackJournalFileIntoWAL() throws {
        let path = try makeRollbackJournalFile()
        do {
            let connection = try Connection(path: path)
            #expect(try connection.scalar("PRAGMA journal_mode", as: String.self) == "wal")
        }
        #expect(try fileFormatVersions(path) == [2, 2])
    }
}
