import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// Cross-process change notification: the change log and `ChangeFeed`.
struct ChangeFeedTests {
    let directory: TemporaryDirectory
    let library: Library

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
    }

    @Test func theFeedSeesCommitsOfAnotherConnectionAsTheyHappen() async throws {
        var feed = library.changeFeed().makeAsyncIterator()
        #expect(try feed.backlog().isEmpty)

        // Another writer, as another process would be: raw SQL, outside the Library.
        try Connection(path: library.path).run(
            "INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (1, 'Low', 'David Bowie', 0, 0)")

        let set = try await feed.next()
        #expect(set?.albums.inserted.count == 1)
        #expect(set?.cursor == feed.position)
    }

    @Test func eachWriteNumbersItsEntriesOnePastTheNewestAndTheCounterPageIsNotWritten() throws {
        let connection = try Connection(path: library.path)
        let control = try library.rows(of: "change_control")
        let start = try ChangeLog.newest(in: connection).transaction
        try library.albums.append(.sample("one"))
        try library.albums.append(.sample("two"))
        // Another program numbers nothing: its entries join the newest number.
        try connection.run(
            "INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (99, 'Low', 'David Bowie', 0, 0)")
        try library.albums.append(.sample("three"))

        let numbers = try connection.query(
            "SELECT tx FROM change_log WHERE table_name = 'albums' ORDER BY seq") { try $0[0, as: Int64.self] }
        #expect(numbers == [start + 1, start + 2, start + 2, start + 3])
        #expect(try library.rows(of: "change_control") == control)
        #expect(try ChangeLog.changeSets(after: 0, in: connection).map { $0.albums.inserted.count }.suffix(3) == [1, 2, 1])
    }

    @Test func theFeedYieldsTheSameChangeSetsAsTheInProcessStream() async throws {
        var changes = library.changes.makeAsyncIterator()
        var feed = library.changeFeed().makeAsyncIterator()
        _ = try feed.backlog()
        let album = try library.albums.append(.sample("Low"))
        try library.albums.move(id: try library.albums.append(.sample("Heroes")).id, to: 0)
        try library.albums.delete(id: album.id)

        for _ in 0..<3 {
            let local = await changes.next()
            let remote = try await feed.next()
            #expect(local == remote)
        }
    }

    @Test func resumingFromACursorGivesExactlyTheMissedChangeSetsOnce() async throws {
        try library.albums.append(.sample("one"))
        let cursor = try ChangeLog.latestCursor(in: try Connection(path: library.path))
        let missed = [try library.albums.append(.sample("two")), try library.albums.append(.sample("three"))]

        var resumed = library.changeFeed(since: cursor).makeAsyncIterator()
        let backlog = try resumed.backlog()
        #expect(backlog.map { $0.albums.inserted } == missed.map { RowIDs([$0.id]) })
        #expect(try resumed.backlog().isEmpty)

        let four = try library.albums.append(.sample("four"))
        #expect(try await resumed.next()?.albums.inserted == RowIDs([four.id]))
    }

    @Test func aCursorOlderThanTheKeptLogIsExpired() throws {
        let small = try Library.open(at: directory.file("small.sqlite"), configuration: .init(changeLogRetention: ChangeLogRetention(maxEntries: 3)))
        try small.albums.append(.sample("zero"))
        for number in 1...10 { try small.albums.append(.sample("n\(number)")) }
        try small.pruneChangeLog()

        var feed = small.changeFeed(since: 1).makeAsyncIterator()
        #expect(throws: ChangeFeedError.cursorExpired(cursor: 1, oldest: 8)) { try feed.backlog() }
        var fresh = small.changeFeed(since: 8).makeAsyncIterator()
        #expect(try fresh.backlog().count == 3)
    }

    @Test func aCursorAheadOfTheLogIsAnErrorNotAnEndlessWait() throws {
        try library.albums.append(.sample("one"))
        let newest = try ChangeLog.latestCursor(in: try Connection(path: library.path))

        var feed = library.changeFeed(since: newest + 5).makeAsyncIterator()

        #expect(throws: ChangeFeedError.cursorAhead(cursor: newest + 5, newest: newest)) { try feed.backlog() }
    }

    @Test func aNegativeCursorCountsChangeSetsBackFromTheNewest() throws {
        try library.albums.append(.sample("one"))
        try library.albums.append(contentsOf: [.sample("two"), .sample("three")])   // one range entry
        let four = try library.albums.append(.sample("four"))
        try library.albums.update(id: four.id) { $0.year = 1977 }
        // An outside writer's entries join the library's last transaction: still one change set.
        try Connection(path: library.path).run("UPDATE albums SET genre = 'Rock' WHERE id = ?", four.id)

        var lastTwo = library.changeFeed(since: -2).makeAsyncIterator()
        var all = library.changeFeed(since: -100).makeAsyncIterator()

        let sets = try lastTwo.backlog()
        #expect(sets.count == 2)
        #expect(sets.first?.albums.inserted == RowIDs([four.id]))
        #expect(sets.last?.albums.updated == RowIDs([four.id]))
        #expect(try all.backlog().count == 4)
    }

    @Test func pruningKeepsTheNewestEntriesWithinBothBounds() throws {
        let small = try Library.open(
            at: directory.file("small.sqlite"),
            configuration: .init(changeLogRetention: ChangeLogRetention(maxEntries: 5, maxAge: .seconds(3600))))
        for number in 0..<12 { try small.albums.append(.sample("n\(number)")) }
        let connection = try Connection(path: small.path)
        try connection.run("UPDATE change_log SET at = 0 WHERE seq <= 9")   // older than an hour
        try small.pruneChangeLog()

        #expect(try connection.query("SELECT seq FROM change_log ORDER BY seq") { try $0[0, as: Int64.self] } == [10, 11, 12])
        #expect(try connection.scalar("SELECT pruned_through FROM change_control", as: Int64.self) == 9)
    }

    @Test func pruningKeepsTheNewestEntrySoCursorsNeverGoBack() throws {
        let small = try Library.open(at: directory.file("small.sqlite"), configuration: .init(changeLogRetention: ChangeLogRetention(maxEntries: 1, maxAge: .zero)))
        for number in 0..<3 { try small.albums.append(.sample("n\(number)")) }
        try small.pruneChangeLog()
        let connection = try Connection(path: small.path)
        #expect(try connection.query("SELECT seq FROM change_log") { try $0[0, as: Int64.self] } == [3])

        try small.albums.append(.sample("after pruning"))
        #expect(try ChangeLog.latestCursor(in: connection) == 4)
    }

    @Test func aLibraryPrunesItsLogAsItCommits() throws {
        let small = try Library.open(at: directory.file("small.sqlite"), configuration: .init(changeLogRetention: ChangeLogRetention(maxEntries: 10)))
        for number in 0..<(Library.pruneInterval + 2) { try small.albums.append(.sample("n\(number)")) }

        let count = try Connection(path: small.path).scalar("SELECT count(*) FROM change_log", as: Int.self)
        #expect(count! <= 10 + 1)
    }
}
