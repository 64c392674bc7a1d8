import Foundation
import TestSupport
import Testing
@testable import AlbumStore

/// Reads run on reader connections: a long write does not hold them up, and they see only
/// committed data.
struct ReaderTests {
    let directory: TemporaryDirectory
    let library: Library

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
        try library.albums.append(contentsOf: (0..<3000).map { AlbumDraft.sample("album \($0)") })
    }

    /// Holds the writer, with an uncommitted insert at the front, until `release` is signalled.
    private func holdWriter(release: DispatchSemaphore) -> DispatchSemaphore {
        let holding = DispatchSemaphore(value: 0)
        let library = library
        Thread.detachNewThread {
            _ = try? library.perform { command in
                try command.connection.run(
                    "INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (-9, 'uncommitted', 'A', 0, 0)")
                holding.signal()
                release.wait()
                return ((), "slow command")
            }
        }
        holding.wait()
        return holding
    }

    @Test func readsDoNotWaitForALongWrite() throws {
        let id = try library.albums.album(at: 2000).id
        let release = DispatchSemaphore(value: 0)
        _ = holdWriter(release: release)
        defer { release.signal() }

        // The writer is held for as long as the test runs: a read that waited for it would never
        // return, so the deadline fails it.
        let albums = library.albums, library = library
        let start = ContinuousClock.now
        let results = try withDeadline(seconds: 5) {
            (try albums.album(at: 0).title, try albums.page(offset: 1500, limit: 2).map(\.album.title),
             try albums.index(of: id), try albums.count(), try library.historyEntries().count)
        }
        let waited = ContinuousClock.now - start
        #expect(results?.0 == "album 0")
        #expect(results?.1 == ["album 1500", "album 1501"])
        #expect(results?.2 == 2000)
        #expect(results?.3 == 3000)
        #expect(results?.4 == 1)
        print("reads while the writer was held took \(waited)")
    }

    @Test func asyncReadsDoNotWaitForALongWrite() async throws {
        let release = DispatchSemaphore(value: 0)
        _ = holdWriter(release: release)
        defer { release.signal() }

        let albums = library.albums
        async let first = albums.album(at: 0)
        async let page = albums.page(offset: 2998, limit: 5)
        async let count = albums.count()
        #expect(try await first.title == "album 0")
        #expect(try await page.map(\.index) == [2998, 2999])
        #expect(try await count == 3000)
    }

    @Test func manyConcurrentReadersAllFinish() async throws {
        let albums = library.albums
        try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<40 { group.addTask { try await albums.album(at: index * 70).title } }
            var titles: Set<String> = []
            for try await title in group { titles.insert(title) }
            #expect(titles.count == 40)
        }
    }
}
