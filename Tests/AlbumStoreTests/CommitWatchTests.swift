#if os(Linux)
import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// A watch stops listening for writes while a long write is under way: every page that write
/// puts in the log would queue an event for it, which the writer pays for at each write.
struct CommitWatchTests {
    let directory: TemporaryDirectory
    let path: String
    /// Another connection, writing more than its page cache holds, so its pages reach the log
    /// before it commits (as a bulk insert's do).
    let writer: Connection

    init() throws {
        directory = try TemporaryDirectory()
        path = try Library.open(at: directory.file("library.sqlite")).path
        writer = try Connection(path: path)
        try writer.execute("PRAGMA cache_size = 10; CREATE TABLE filler (data BLOB);")
    }

    /// Puts pages in the log in the writer's open transaction.
    private func writePages() throws {
        try writer.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
            INSERT INTO filler SELECT zeroblob(100000) FROM n;
            """)
    }

    /// Opens a watch, then begins a write on `writer` that puts pages in the log again and again
    /// without committing, and gets the watch to look each time it has been woken by them.
    private func watchALongWrite() async throws -> CommitWatch {
        var watch = CommitWatch(path: path, pollInterval: .milliseconds(10), busyTimeout: .seconds(5))
        _ = try watch.hasNewCommits()
        #expect(watch.wakesOnWrites)
        try writer.execute("BEGIN IMMEDIATE")
        for _ in 0..<2 {
            try writePages()
            // The kernel queued the events before the writes returned: this wait is woken at once.
            #expect(await watch.pause())
            #expect(try watch.hasNewCommits() == false)
        }
        return watch
    }

    @Test func aLongWriteHasItIgnoreWritesUntilItCommits() async throws {
        var watch = try await watchALongWrite()

        #expect(await watch.pause())
        #expect(!watch.wakesOnWrites)

        try writer.execute("COMMIT")
        #expect(try watch.hasNewCommits())
        #expect(watch.wakesOnWrites)
    }

    @Test func oneLookInVainIsNotALongWrite() async throws {
        var watch = CommitWatch(path: path, pollInterval: .milliseconds(10), busyTimeout: .seconds(5))
        _ = try watch.hasNewCommits()
        try writer.execute("BEGIN IMMEDIATE")
        try writePages()
        #expect(await watch.pause())
        #expect(try watch.hasNewCommits() == false)

        #expect(await watch.pause())
        #expect(watch.wakesOnWrites)
        try writer.execute("ROLLBACK")
    }

    @Test func aLongWriteRolledBackHasItListenAgainAfterAQuietSecond() async throws {
        var watch = try await watchALongWrite()
        #expect(await watch.pause())
        #expect(!watch.wakesOnWrites)
        try writer.execute("ROLLBACK")

        let deadline = ContinuousClock.now + .seconds(10)
        while !watch.wakesOnWrites && ContinuousClock.now < deadline {
            #expect(try watch.hasNewCommits() == false)
            #expect(await watch.pause())
        }
        #expect(watch.wakesOnWrites)
    }
}
#endif
