import Dispatch
import Foundation
import AlbumSQLite
import Testing
import TestSupport

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

    @Test(.timeLimit(.minutes(1)))
    func aWriteWaitingForAnotherThreadsWriteGivesUpAfterTheBusyTimeout() throws {
        var options = ConnectionOptions()
        options.busyTimeout = .milliseconds(300)
        let database = try Database(path: directory.path(), options: options)
        try database.write { try $0.execute("CREATE TABLE t(x)") }
        let release = try holding { done in try database.write { _ in done() } }
        defer { release() }

        let (error, waited) = try failure(within: 2) { try database.write { try $0.run("INSERT INTO t VALUES (1)") } }
        #expect(error?.extendedCode == SQLiteError.ResultCode.busyTimeout)
        #expect(error?.isBusy == true)
        #expect(error?.message == "another thread of this process is holding the writer")
        #expect(waited >= .milliseconds(250))
    }

    @Test(.timeLimit(.minutes(1)))
    func aReadWaitingForABusyReaderPoolGivesUpAfterTheBusyTimeout() throws {
        var options = ConnectionOptions()
        options.busyTimeout = .milliseconds(300)
        let database = try Database(path: directory.path(), options: options, maxReaders: 1)
        try database.write { try $0.execute("CREATE TABLE t(x)") }
        let release = try holding { done in try database.read { _ in done() } }
        defer { release() }

        let (error, waited) = try failure(within: 2) { try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int.self) } }
        #expect(error?.extendedCode == SQLiteError.ResultCode.busyTimeout)
        #expect(error?.message == "all 1 reader connections are busy with other reads")
        #expect(waited >= .milliseconds(250))
        // The pool still serves once the reader is back.
        release()
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int.self) } == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func anInterruptionStopsAReadsRunningStatementAndLeavesTheReaderUsable() throws {
        let database = try Database(path: directory.path(), maxReaders: 1)
        try database.write { try $0.execute("CREATE TABLE t(x)") }
        let endless = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"
        let interruption = Interruption()
        let error = LockedValue<SQLiteError?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                _ = try interruption.run { try database.read { try $0.scalar(endless, as: Int.self) } }
            } catch let thrown as SQLiteError {
                error.set(thrown)
            } catch {}
            done.signal()
        }
        // Whether the statement has started yet or not, it stops.
        interruption.interrupt()
        try #require(done.wait(timeout: .now() + 2) == .success, "the interrupted statement still runs")
        #expect(error.get()?.code == SQLiteError.ResultCode.interrupt)
        // Outside `run` the same reader has no handler left to stop it.
        let counted = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 10000) SELECT count(*) FROM n"
        #expect(try database.read { try $0.scalar(counted, as: Int.self) } == 10000)
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

extension ConcurrencyTests {
    /// Runs `hold` on a thread of its own (not Dispatch's pool, which tests running alongside may
    /// have filled with waits) until it calls the closure it is given (inside whatever
    /// it holds), and returns a function that lets it return; call it at least once.
    func holding(_ hold: @escaping @Sendable (_ inside: () -> Void) throws -> Void) throws -> @Sendable () -> Void {
        let inside = DispatchSemaphore(value: 0)
        let mayReturn = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? hold {
                inside.signal()
                mayReturn.wait()
            }
            returned.signal()
        }
        try #require(inside.wait(timeout: .now() + 10) == .success)
        let released = LockedValue(false)
        return {
            guard !released.get() else { return }
            released.set(true)
            mayReturn.signal()
            _ = returned.wait(timeout: .now() + 10)
        }
    }

    /// The `SQLiteError` `work` throws on another thread, and how long it took; the test fails
    /// if it does not return within `seconds` or does not throw one.
    func failure<T>(within seconds: Double, _ work: @escaping @Sendable () throws -> T) throws -> (SQLiteError?, Duration) {
        let result = LockedValue<(SQLiteError?, Duration)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let start = ContinuousClock.now
            var error: SQLiteError?
            do { _ = try work() } catch let thrown as SQLiteError { error = thrown } catch {}
            result.set((error, start.duration(to: .now)))
            done.signal()
        }
        try #require(done.wait(timeout: .now() + seconds) == .success, "the call still waits after \(seconds) s")
        let (error, waited) = try #require(result.get())
        #expect(error != nil, "the call returned instead of throwing SQLiteError")
        return (error, waited)
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
