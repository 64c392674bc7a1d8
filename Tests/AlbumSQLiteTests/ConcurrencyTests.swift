import Dispatch
import Foundation
import AlbumSQLite
import Testing

/// Readers and writers on one file: WAL isolation, `Database`, and `PRAGMA data_version`.
struct ConcurrencyTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    @Test func readerConnectionSeesOnlyCommittedDataWhileWriterIsMidTransaction() throws {
        let writer = try directory.open()
        try writer.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        let reader = try directory.open()

        try writer.execute("BEGIN IMMEDIATE")
        try writer.run("INSERT INTO t VALUES (2)")
        try writer.run("UPDATE t SET x = 10 WHERE x = 1")
        #expect(try writer.query("SELECT x FROM t ORDER BY x") { try $0[0, as: Int.self] } == [2, 10])
        #expect(try reader.query("SELECT x FROM t ORDER BY x") { try $0[0, as: Int.self] } == [1])
        try writer.execute("COMMIT")
        #expect(try reader.query("SELECT x FROM t ORDER BY x") { try $0[0, as: Int.self] } == [2, 10])
    }

    @Test(.timeLimit(.minutes(1)))
    func databaseReadSeesOnlyCommittedDataWhileAnotherThreadHoldsAWrite() throws {
        let database = try Database(path: directory.path())
        try database.write { try $0.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)") }

        let insideWrite = DispatchSemaphore(value: 0)
        let mayCommit = DispatchSemaphore(value: 0)
        let writeReturned = DispatchGroup()
        writeReturned.enter()
        DispatchQueue.global().async {
            defer { writeReturned.leave() }
            try? database.write { connection in
                try connection.run("INSERT INTO t VALUES (2)")
                insideWrite.signal()
                mayCommit.wait()
            }
        }
        // Whatever happens below, let the writer finish before the directory goes away.
        defer {
            mayCommit.signal()
            _ = writeReturned.wait(timeout: .now() + 30)
        }
        try #require(insideWrite.wait(timeout: .now() + 30) == .success)

        // Read on another thread, so that a read stuck behind the write fails the test instead of hanging it.
        let during = LockedValue<[Int]?>(nil)
        let readReturned = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let rows = try? database.read { try $0.query("SELECT x FROM t ORDER BY x") { try $0[0, as: Int.self] } }
            during.set(rows)
            readReturned.signal()
        }
        #expect(readReturned.wait(timeout: .now() + 10) == .success, "Database.read waited for the open write")
        #expect(during.get() == [1])

        mayCommit.signal()
        try #require(writeReturned.wait(timeout: .now() + 30) == .success)
        let after = try database.read { try $0.query("SELECT x FROM t ORDER BY x") { try $0[0, as: Int.self] } }
        #expect(after == [1, 2])
    }

    @Test func dataVersionChangesAfterAnotherConnectionCommits() throws {
        let a = try directory.open()
        try a.execute("CREATE TABLE t(x)")
        let b = try directory.open()
        let before = try a.dataVersion()
        #expect(try a.dataVersion() == before)
        try b.run("INSERT INTO t VALUES (1)")
        #expect(try a.dataVersion() != before)
    }

    @Test func dataVersionStaysTheSameAfterOwnCommit() throws {
        let a = try directory.open()
        try a.execute("CREATE TABLE t(x)")
        let before = try a.dataVersion()
        try a.run("INSERT INTO t VALUES (1)")
        try a.transaction { try a.run("INSERT INTO t VALUES (2)") }
        #expect(try a.dataVersion() == before)
    }

    @Test func databaseReaderRefusesWrites() throws {
        let database = try Database(path: directory.path())
        try database.write { try $0.execute("CREATE TABLE t(x)") }
        #expect(throws: SQLiteError.self) {
            try database.read { try $0.run("INSERT INTO t VALUES (1)") }
        }
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int.self) } == 0)
    }

    @Test func databaseWriteRollsBackWhenBodyThrows() throws {
        struct Boom: Error, Equatable {}
        let database = try Database(path: directory.path())
        try database.write { try $0.execute("CREATE TABLE t(x)") }
        #expect(throws: Boom()) {
            try database.write { connection in
                try connection.run("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int.self) } == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func concurrentDatabaseWritesAreSerialized() throws {
        let database = try Database(path: directory.path())
        try database.write { try $0.execute("CREATE TABLE t(x)") }
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in 0..<50 {
                try? database.write { try $0.run("INSERT INTO t VALUES (?)", worker * 1000 + index) }
            }
        }
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int.self) } == 400)
    }
}

/// A value handed between threads under a lock.
private final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}
