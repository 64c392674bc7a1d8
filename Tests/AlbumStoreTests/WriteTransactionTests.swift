import AlbumSQLite
import Foundation
import TestSupport
import Testing
@testable import AlbumStore

/// `Library.write(_:_:)`: several commands as one transaction and one undo step, whose reads see
/// its own writes; and `close()`.
struct WriteTransactionTests {
    let directory: TemporaryDirectory
    let library: Library

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
        for draft in AlbumDraft.classics { try library.albums.append(draft) }
    }

    @Test func aMoveAndASavedCurrentAlbumCommitTogetherAndUndoAsOneStep() throws {
        let before = try library.titles()
        let last = try library.albums.album(at: -1)
        try library.session.setCurrentAlbum(at: 1)
        let entries = try library.historyEntries().count

        try library.write("move and show") { library in
            try library.albums.move(id: last.id, to: 0)
            try library.session.setCurrentAlbum(id: last.id)
        }

        #expect(try library.albums.album(at: 0) == (try library.albums.album(id: last.id)))
        #expect(try library.session.currentAlbum()?.album.id == last.id)
        #expect(try library.historyEntries().count == entries + 1)
        #expect(try library.historyEntries().last?.description == "move and show")

        try library.undo()

        #expect(try library.titles() == before)
        #expect(try library.session.currentAlbum()?.index == 1)
    }

    @Test func readsInsideSeeTheTransactionsOwnWrites() throws {
        let album = try library.albums.album(at: 0)

        let added = try library.write { library in
            let added = try library.albums.append(.sample("Added inside"))
            #expect(try library.albums.album(id: added.id) == added)
            #expect(try library.albums.count() == AlbumDraft.classics.count + 1)
            // Two edits of one album: the second sees the first (it used to retry forever).
            try library.albums.update(id: album.id) { $0.genre = "First" }
            try library.albums.update(id: album.id) { $0.genre = ($0.genre ?? "") + " and second" }
            #expect(try library.albums.albums(matching: try AlbumQuery(parsing: "\"Added inside\"")).map(\.id) == [added.id])
            return added
        }

        #expect(try library.albums.album(id: album.id)?.genre == "First and second")
        #expect(try library.albums.album(id: added.id) == added)
    }

    @Test func aThrowInsideLeavesNothingOfTheTransaction() throws {
        struct Stop: Error {}
        let before = try library.titles()

        #expect(throws: Stop.self) {
            try library.write { library in
                try library.albums.delete(at: 0)
                try library.albums.append(.sample("Never kept"))
                try library.session.setCurrentAlbum(at: 0)
                throw Stop()
            }
        }

        #expect(try library.titles() == before)
        #expect(try library.session.currentAlbum() == nil)
        #expect(try library.historyEntries().count == AlbumDraft.classics.count)
    }

    /// Found by fuzzing the change recorder: a call inside that fails after its statement
    /// changed a row is undone by SQLite, which does not tell the write's change recorder; its
    /// undo step held the change that never happened, and `undo()` then failed on it.
    @Test func aCallThatFailsInsideIsLeftOutOfTheUndoStep() throws {
        // Another program's trigger makes an edit fail after the row changed.
        try Connection(path: directory.file("library.sqlite").path).execute("""
            CREATE TRIGGER elsewhere_no_boom AFTER UPDATE ON albums WHEN new.genre = 'Boom' BEGIN
                SELECT RAISE(ABORT, 'no boom');
            END
            """)
        let first = try library.albums.album(at: 0)
        let second = try library.albums.album(at: 1)

        try library.write { library in
            #expect(throws: (any Error).self) { try library.albums.update(id: first.id) { $0.genre = "Boom" } }
            try library.albums.update(id: second.id) { $0.genre = "Kept" }
        }
        #expect(try library.albums.album(id: first.id) == first)
        #expect(try library.albums.album(id: second.id)?.genre == "Kept")

        try library.undo()
        #expect(try library.albums.album(id: first.id) == first)
        #expect(try library.albums.album(id: second.id) == second)
    }

    @Test func undoAndImportsInsideAreRefusedAtOnce() throws {
        try library.write { library in
            let undo = try #require(throws: StorageError.self) { try library.undo() }
            #expect(undo.reason == .misuse)
            #expect(throws: StorageError.self) { try library.importAlbums(from: .data(Data("title,artist\nA,B\n".utf8))) }
            #expect(throws: StorageError.self) { try library.write { _ in } }
        }
    }

    @Test func anAsyncWriteRunsOffTheCooperativeThreadsAndReturnsItsResult() async throws {
        let count = try await library.write { library in
            try library.albums.append(.sample("From a task"))
            return try library.albums.count()
        }
        #expect(count == AlbumDraft.classics.count + 1)
        #expect(try await library.albums.count() == count)
    }

    /// Threads of their own, not tasks: a transaction holding the writer blocks its thread.
    @Test func anotherThreadsWriteWaitsForTheTransactionAndThenCommits() throws {
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let inside = DispatchSemaphore(value: 0), outside = DispatchSemaphore(value: 0)
        let failures = Box<[String]>([])
        Thread.detachNewThread { [library] in
            do {
                try library.write { library in
                    try library.albums.append(.sample("Inside"))
                    started.signal()
                    _ = release.wait(timeout: .now() + 5)
                }
            } catch { failures.value?.append("inside: \(error)") }
            inside.signal()
        }
        try #require(started.wait(timeout: .now() + 5) == .success)
        // A read elsewhere sees the state before the transaction.
        #expect(try library.albums.count() == AlbumDraft.classics.count)
        Thread.detachNewThread { [library] in
            do { try library.albums.append(.sample("Outside")) } catch { failures.value?.append("outside: \(error)") }
            outside.signal()
        }
        release.signal()

        try #require(inside.wait(timeout: .now() + 5) == .success)
        try #require(outside.wait(timeout: .now() + 5) == .success)
        #expect(failures.value == [])
        #expect(try library.titles().suffix(2) == ["Inside", "Outside"])
    }

    @Test func anEditThatOtherWritersKeepChangingGivesUpWithAClearError() throws {
        let album = try library.albums.album(at: 0)
        let other = try Library.open(at: directory.file("library.sqlite"))
        var runs = 0

        let error = try #require(throws: AlbumError.self) {
            try library.albums.update(id: album.id) { draft in
                runs += 1
                // Another writer changes the album each time before the edit is saved.
                try other.albums.update(id: album.id) { $0.year = 1900 + runs }
                draft.genre = "Mine"
            }
        }

        #expect(error == .changedDuringEdit(id: album.id, attempts: AlbumRepository.editAttempts))
        #expect(runs == AlbumRepository.editAttempts)
        #expect(try library.albums.album(id: album.id)?.genre == album.genre)
    }

    @Test func closeReleasesTheFileAndLaterCallsThrow() async throws {
        let path = directory.file("library.sqlite").path
        _ = try await library.albums.count()
        let stream = library.changes
        let feed = library.changeFeed()
        #expect(try openDescriptors(of: path) > 0)
        let feedConsumer = Task {
            var iterator = feed.makeAsyncIterator()
            _ = try? iterator.backlog()
            // Waiting for a change that never comes: closing the library ends the wait.
            return (try? await iterator.next()) ?? nil
        }

        library.close()
        library.close()

        // The feed notices within a second, and its own connection goes with it.
        #expect(await value(of: feedConsumer) == .some(nil))
        #expect(try openDescriptors(of: path) == 0)
        let error = try #require(throws: StorageError.self) { try library.albums.count() }
        #expect(error.reason == .misuse)
        #expect(error.message.contains("closed"))
        #expect(throws: StorageError.self) { try library.albums.append(.sample("After close")) }
        // The stream has ended.
        let next = await value(of: Task {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        })
        #expect(next == .some(nil))
        // Another library opens it as usual.
        #expect(try await Library.open(atPath: path).albums.count() == AlbumDraft.classics.count)
    }

    /// How many of this process's descriptors are open on `path` or its WAL files.
    private func openDescriptors(of path: String) throws -> Int {
        let folder = "/proc/self/fd"
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder)
        return entries.filter { entry in
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + entry)) ?? ""
            return target.hasPrefix(path)
        }.count
    }
}

extension WriteTransactionTests {
    @Test func cancellingAnAsyncWriteBeforeItCommitsRollsItBack() async throws {
        let before = try library.titles()
        let entries = try await library.historyEntries().count
        let inside = DispatchSemaphore(value: 0), mayGoOn = DispatchSemaphore(value: 0)
        let write = Task { [library] in
            try await library.write("cancelled") { library in
                try library.albums.append(.sample("Never"))
                inside.signal()
                mayGoOn.wait()
            }
        }
        let entered = await Task.detached { inside.wait(timeout: .now() + eventTimeout) }.value
        try #require(entered == .success)
        write.cancel()
        mayGoOn.signal()
        let outcome = await value(of: Task { await write.result })
        #expect(throws: CancellationError.self) { try outcome?.get() }
        #expect(try library.titles() == before)
        #expect(try await library.historyEntries().count == entries)

        // Not cancelled, the same write commits.
        try await library.write("kept") { library in try library.albums.append(.sample("Kept")) }
        #expect(try library.titles() == before + ["Kept"])
    }
}
