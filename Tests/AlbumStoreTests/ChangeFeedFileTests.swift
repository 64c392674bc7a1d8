import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// A change feed whose library file goes away ends with an error instead of waiting forever.
struct ChangeFeedFileTests {
    let directory: TemporaryDirectory
    let library: Library

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
    }

    /// Reads `feed` until it throws, on a task that must end within a few seconds.
    private func ending(_ feed: ChangeFeed, after change: @escaping @Sendable () throws -> Void) async throws -> Error? {
        var iterator = feed.makeAsyncIterator()
        _ = try iterator.backlog()   // the feed has opened the file
        try change()
        let task = Task { [iterator] in
            var iterator = iterator
            do {
                while try await iterator.next() != nil {}
                return nil as Error?
            } catch {
                return error
            }
        }
        return await value(of: task) ?? nil
    }

    @Test func deletingTheFileEndsTheFeed() async throws {
        let path = library.path
        let error = try await ending(library.changeFeed()) { try FileManager.default.removeItem(atPath: path) }
        #expect(error as? ChangeFeedError == .fileDeleted(path: path))
    }

    @Test func replacingTheFileEndsTheFeed() async throws {
        let path = library.path
        let other = directory.file("other.sqlite").path
        _ = try Library.open(at: URL(fileURLWithPath: other))
        let error = try await ending(library.changeFeed()) {
            // As `mv other.sqlite library.sqlite` does: one rename over the old file.
            guard rename(other, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
        #expect(error as? ChangeFeedError == .fileReplaced(path: path))
    }

    @Test func whatWasCommittedBeforeTheFileWentIsHandedOutFirst() async throws {
        let path = library.path
        var feed = library.changeFeed().makeAsyncIterator()
        _ = try feed.backlog()
        let album = try library.albums.append(.sample("Low"))
        try FileManager.default.removeItem(atPath: path)

        #expect(try await feed.next()?.albums.inserted == RowIDs([album.id]))
        await #expect(throws: ChangeFeedError.fileDeleted(path: path)) { _ = try await feed.next() }
    }

    /// A feed looking once a minute is in a long wait as soon as it has looked once, as an idle
    /// feed is after a quiet second.
    static let longWait = Duration.seconds(60)

    /// A task waiting for `feed`'s next change set, returned once the feed has opened the file
    /// and found nothing: it is then in its long wait, or about to be.
    private func waitingForNext(_ feed: ChangeFeed) async throws -> Task<ChangeSet?, Error> {
        let (opened, sign) = AsyncStream<Void>.makeStream()
        let task = Task {
            var iterator = feed.makeAsyncIterator()
            #expect(try iterator.backlog().isEmpty)
            sign.yield()
            return try await iterator.next()
        }
        let didOpen = try await withAsyncDeadline { await opened.first { _ in true } != nil }
        try #require(didOpen == true)
        return task
    }

    @Test func aCancelledFeedStopsWaitingAtOnce() async throws {
        let next = try await waitingForNext(library.changeFeed(pollInterval: Self.longWait))

        next.cancel()

        // Nil at once, not after the minute. (The bound is generous because a busy suite may
        // leave the task no cooperative thread for a while.)
        let value = try await withAsyncDeadline { try await next.value }
        #expect(value == .some(nil))
    }

    /// Linux only: elsewhere an idle feed polls, and sees a commit at its next look.
    @Test(.enabled(if: FileChangeSignal.watching(databaseAt: NSTemporaryDirectory() + "/x") != nil, "needs inotify"))
    func anIdleFeedStillSeesACommitSoon() async throws {
        let next = try await waitingForNext(library.changeFeed(pollInterval: Self.longWait))

        let album = try library.albums.append(.sample("Low"))

        // Woken by the write, not at its next look a minute later. How soon is bench-observe's to
        // measure (2 ms with inotify); the bound here only catches a feed that is not woken.
        let set = try await withAsyncDeadline { try await next.value }
        #expect(set??.albums.inserted == RowIDs([album.id]))
    }
}
