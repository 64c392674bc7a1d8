import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// In-process change notification: `library.changes`.
struct ChangeStreamTests {
    let directory: TemporaryDirectory
    let library: Library

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
    }

    @Test func aCommitGivesOneChangeSetWithItsAlbumIDs() async throws {
        var changes = library.changes.makeAsyncIterator()
        let album = try library.albums.append(.sample("Low"))
        try library.albums.update(id: album.id) { $0.year = 1977 }
        try library.albums.delete(id: album.id)

        #expect(await changes.next()?.albums == TableChanges(inserted: RowIDs([album.id])))
        #expect(await changes.next()?.albums == TableChanges(updated: RowIDs([album.id])))
        #expect(await changes.next()?.albums == TableChanges(deleted: RowIDs([album.id])))
    }

    @Test func undoAndRedoAreObservedToo() async throws {
        let album = try library.albums.append(.sample("Low"))
        var changes = library.changes.makeAsyncIterator()
        try library.undo()
        try library.redo()

        #expect(await changes.next()?.albums.deleted == RowIDs([album.id]))
        #expect(await changes.next()?.albums.inserted == RowIDs([album.id]))
    }

    @Test func rolledBackWorkProducesNothing() async throws {
        try Connection(path: library.path).execute("""
            CREATE TRIGGER refuse_boom BEFORE INSERT ON albums WHEN NEW.title = 'boom'
            BEGIN SELECT RAISE(ABORT, 'boom refused'); END;
            """)
        var changes = library.changes.makeAsyncIterator()

        #expect(throws: StorageError.self) { try library.albums.append(contentsOf: [.sample("fine"), .sample("boom")]) }
        let after = try library.albums.append(.sample("after"))

        #expect(await changes.next()?.albums == TableChanges(inserted: RowIDs([after.id])))
        #expect(try library.titles() == ["after"])
    }

    @Test func aSavepointRolledBackInsideACommittedTransactionIsNotReported() async throws {
        var changes = library.changes.makeAsyncIterator()
        let kept = try library.perform { command in
            let connection = command.connection
            _ = try? connection.savepoint {
                try connection.run("INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (1, 'gone', 'A', 0, 0)")
                throw AlbumError.notFound(id: 0)
            }
            try connection.run("INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (2, 'kept', 'A', 0, 0)")
            return (connection.lastInsertRowID, "test")
        }

        let set = await changes.next()
        #expect(set?.albums == TableChanges(inserted: RowIDs([kept])))
    }

    @Test func everySubscriberGetsEveryChangeSet() async throws {
        let streams = (0..<3).map { _ in library.changes }
        let first = try library.albums.append(.sample("one"))
        let second = try library.albums.append(.sample("two"))

        for stream in streams {
            var iterator = stream.makeAsyncIterator()
            #expect(await iterator.next()?.albums.inserted == RowIDs([first.id]))
            #expect(await iterator.next()?.albums.inserted == RowIDs([second.id]))
        }
    }

    @Test func cancellingTheConsumingTaskEndsItAndAStreamNobodyHoldsIsUnsubscribed() async throws {
        do {
            let stream = library.changes
            let consumer = Task {
                var count = 0
                for await _ in stream { count += 1 }
                return count
            }
            consumer.cancel()
            #expect(await consumer.value == 0)
            // Only that consumer ended: another may still take the stream's sets.
            #expect(!stream.subscription.isFinished)
        }
        try library.albums.append(.sample("after the end"))
        #expect(!library.hub.hasSubscribers)
    }

    @Test func twoTasksConsumingOneStreamShareItsChangeSetsAndCancellingOneEndsOnlyIt() async throws {
        let stream = library.changes
        let (received, forward) = AsyncStream.makeStream(of: ChangeSet.self)
        let consumers = (0..<2).map { _ in
            Task {
                for await set in stream { forward.yield(set) }
                return true
            }
        }
        let ids = try (0..<4).map { try library.albums.append(.sample("n\($0)")).id }

        func read(_ count: Int) -> Task<[ChangeSet], Never> {
            Task {
                var all = received.makeAsyncIterator()
                var sets: [ChangeSet] = []
                while sets.count < count, let set = await all.next() { sets.append(set) }
                return sets
            }
        }
        // Each set reached one of the two, once.
        #expect(await value(of: read(4))?.insertedAlbums.sorted() == ids)
        consumers[1].cancel()
        #expect(await value(of: consumers[1]) == true)
        // The other goes on.
        let later = try library.albums.append(.sample("later")).id
        #expect(await value(of: read(1))?.insertedAlbums == [later])
        consumers[0].cancel()
        #expect(await value(of: consumers[0]) == true)
    }

    @Test func cancellingAConsumerWaitingForChangesEndsItPromptly() async throws {
        let stream = library.changes
        let (waiting, started) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            started.yield()
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        var first = waiting.makeAsyncIterator()
        _ = await first.next()
        consumer.cancel()
        #expect(await value(of: consumer, within: 1) == 0)
    }

    @Test func aStreamEndsWhenItsLibraryIsReleased() async throws {
        var other: Library? = try Library.open(at: directory.file("other.sqlite"))
        let stream = try #require(other).changes
        let consumer = Task {
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        other = nil
        #expect(await value(of: consumer) == 0)
    }

    @Test func anObservationEndsWhenItsLibraryIsReleased() async throws {
        var other: Library? = try Library.open(at: directory.file("other.sqlite"))
        let counts = try #require(other).observe { try await $0.albums.count() }
        let consumer = Task {
            var seen: [Int] = []
            do { for try await count in counts { seen.append(count) } } catch { return [-1] }
            return seen
        }
        other = nil
        let seen = await value(of: consumer)
        #expect(seen == [] || seen == [0])
    }

    @Test func closingEndsEveryStreamAndLaterOnesAtOnce() async throws {
        let stream = library.changes
        library.close()
        #expect(await stream.collect { _ in false } == [])
        #expect(await library.changes.collect { _ in false } == [])
        #expect(throws: StorageError.self) { try library.albums.append(.sample("never written")) }
        #expect(!library.hub.hasSubscribers)
    }

    @Test func aStreamNobodyHoldsIsNoLongerASubscriber() throws {
        do { _ = library.changes }
        #expect(!library.hub.hasSubscribers)
        try library.albums.append(.sample("no one listens"))
    }

    @Test func aSlowSubscriberGetsAnOverflowSetAndNeverBlocksTheWriter() async throws {
        var slow = library.changes(bufferSize: 4).makeAsyncIterator()
        var fast = library.changes.makeAsyncIterator()
        for number in 0..<20 { try library.albums.append(.sample("n\(number)")) }

        let overflow = await slow.next()
        #expect(overflow?.isOverflow == true)
        #expect(overflow?.touches("albums") == true)
        try library.albums.append(.sample("later"))
        #expect(await slow.next()?.albums.inserted.count == 1)
        var fastCount = 0
        while fastCount < 21, await fast.next() != nil { fastCount += 1 }
        #expect(fastCount == 21)
    }

    @Test func bulkAppendIsOneChangeSetWithARangeOfIDs() async throws {
        var changes = library.changes.makeAsyncIterator()
        let ids = try library.albums.append(contentsOf: (0..<1000).map { .sample("bulk \($0)") })

        let set = await changes.next()
        #expect(set?.albums.inserted == ids)
        #expect(ids.count == 1000 && ids.ranges.count == 1)
        let entries = try Connection(path: library.path).scalar("SELECT count(*) FROM change_log", as: Int.self)
        #expect(entries == 1)
    }

    @Test func undoOfABulkAppendIsOneChangeSetDeletingTheRange() async throws {
        let ids = try library.albums.append(contentsOf: (0..<500).map { .sample("bulk \($0)") })
        var changes = library.changes.makeAsyncIterator()
        let before = try ChangeLog.latestCursor(in: try Connection(path: library.path))
        try library.undo()

        #expect(await changes.next()?.albums == TableChanges(deleted: ids))
        let entries = try Connection(path: library.path).scalar(
            "SELECT count(*) FROM change_log WHERE seq > ?", before, as: Int.self)
        #expect(entries == 1)
    }

    @Test func replaceAndDeleteAllAreLoggedDespiteTheUpdateHooksGaps() throws {
        let low = try library.albums.append(AlbumDraft(title: "Low", artist: "David Bowie", externalID: "mb:1"))
        let heroes = try library.albums.append(.sample("Heroes"))
        let other = try Connection(path: library.path)
        let cursor = try ChangeLog.latestCursor(in: other)
        let start = try ChangeLog.newest(in: other)

        // REPLACE deletes the row holding mb:1; the update hook would not see that deletion.
        try other.run("""
            INSERT OR REPLACE INTO albums (position, title, artist, external_id, created_at, updated_at)
            VALUES (9, 'Low (2017 remaster)', 'David Bowie', 'mb:1', 0, 0)
            """)
        let replacing = other.lastInsertRowID
        // Each numbered as the Library numbers the entries of its transactions.
        let afterReplace = try ChangeLog.latestCursor(in: other)
        try ChangeLog.number(entriesAfter: start.cursor, as: start.transaction + 1, in: other)
        // DELETE without WHERE: the truncate shortcut would skip the hook.
        try other.run("DELETE FROM albums")
        try ChangeLog.number(entriesAfter: afterReplace, as: start.transaction + 2, in: other)

        let sets = try ChangeLog.changeSets(after: cursor, in: other)
        #expect(sets.count == 2)
        #expect(sets[0].albums == TableChanges(inserted: RowIDs([replacing]), deleted: RowIDs([low.id])))
        #expect(sets[1].albums.deleted == RowIDs([heroes.id, replacing]))
    }
}
