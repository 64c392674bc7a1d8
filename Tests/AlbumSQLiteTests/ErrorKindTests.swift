import Foundation
import AlbumSQLite
import Testing
import TestSupport

/// The questions code above this layer asks of an error, answered without SQLite's C header:
/// this file deliberately does not import CSQLite.
struct ErrorKindTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    @Test func aFileThatIsNotADatabaseIsNotADatabase() throws {
        let path = directory.path("notes.txt")
        try Data(repeating: UInt8(ascii: "x"), count: 4096).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: SQLiteError.self) {
            let connection = try Connection(path: path)
            _ = try connection.scalar("SELECT count(*) FROM sqlite_schema", as: Int.self)
        }
        #expect(error.isNotADatabase)
        #expect(error.code == SQLiteError.ResultCode.notADatabase)
        #expect(!error.isCorrupt && !error.isReadOnly && !error.isBusy && !error.isConstraintViolation)
    }

    @Test func aWriteOnAReadOnlyConnectionIsReadOnly() throws {
        try directory.open().execute("CREATE TABLE t(x)")
        var options = ConnectionOptions()
        options.mode = .readOnly
        let reader = try directory.open(options: options)
        let error = try #require(throws: SQLiteError.self) { try reader.run("INSERT INTO t VALUES (1)") }
        #expect(error.isReadOnly)
        #expect(error.code == SQLiteError.ResultCode.readOnly)
    }

    @Test func aWriteOnAQueryOnlyConnectionIsReadOnly() throws {
        try directory.open().execute("CREATE TABLE t(x)")
        var options = ConnectionOptions()
        options.queryOnly = true
        let error = try #require(throws: SQLiteError.self) { try directory.open(options: options).run("INSERT INTO t VALUES (1)") }
        #expect(error.isReadOnly)
    }

    @Test func aDamagedTablePageIsCorrupt() throws {
        var options = ConnectionOptions()
        options.journalMode = .delete
        do {
            let connection = try directory.open(options: options)
            try connection.execute("CREATE TABLE t(x TEXT)")
            for index in 0..<200 { try connection.run("INSERT INTO t VALUES (?)", "row \(index)") }
        }
        // Page 2 is the table's root page; garbage over its header makes it unreadable.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.path()))
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xEE, count: 64))
        try handle.close()
        let error = try #require(throws: SQLiteError.self) {
            _ = try directory.open(options: options).query("SELECT x FROM t") { $0.values }
        }
        #expect(error.isCorrupt)
        #expect(error.code == SQLiteError.ResultCode.corrupt)
    }

    @Test func aUniqueViolationIsAConstraintViolation() throws {
        let connection = try directory.open()
        try connection.execute("CREATE TABLE t(x UNIQUE); INSERT INTO t VALUES (1)")
        let error = try #require(throws: SQLiteError.self) { try connection.run("INSERT INTO t VALUES (1)") }
        #expect(error.isConstraintViolation)
        #expect(error.code == SQLiteError.ResultCode.constraint)
    }

    @Test func resultCodesAreSQLitesPrimaryCodes() {
        // Values from https://sqlite.org/rescode.html
        #expect(SQLiteError.ResultCode.error == 1)
        #expect(SQLiteError.ResultCode.abort == 4)
        #expect(SQLiteError.ResultCode.busy == 5)
        #expect(SQLiteError.ResultCode.locked == 6)
        #expect(SQLiteError.ResultCode.readOnly == 8)
        #expect(SQLiteError.ResultCode.interrupt == 9)
        #expect(SQLiteError.ResultCode.ioError == 10)
        #expect(SQLiteError.ResultCode.corrupt == 11)
        #expect(SQLiteError.ResultCode.full == 13)
        #expect(SQLiteError.ResultCode.cannotOpen == 14)
        #expect(SQLiteError.ResultCode.constraint == 19)
        #expect(SQLiteError.ResultCode.mismatch == 20)
        #expect(SQLiteError.ResultCode.misuse == 21)
        #expect(SQLiteError.ResultCode.range == 25)
        #expect(SQLiteError.ResultCode.notADatabase == 26)
    }
}
