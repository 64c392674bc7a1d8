import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// In-process subscriptions (`changes`, `observe`) see every committer of the file: another
/// `Library` on it, another process; and nothing committed before they were made.
struct OtherWritersObservationTests {
    let directory: TemporaryDirectory
    let library: Library
    /// A second library on the same file, as a second window of an app would open it.
    let other: Library

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
        other = try Library.open(at: directory.file("library.sqlite"))
    }

    @Test func anotherLibraryOnTheFileSeesItsCommitsThroughChanges() async throws {
        let stream = other.changes
        let ids = try (0..<3).map { try library.albums.append(.sample("n\($0)")).id }

        let sets = await stream.collect { $0.insertedAlbums.count >= 3 }
        // One set per transaction, in commit order.
        #expect(sets?.map(\.albums) == ids.map { TableChanges(inserted: RowIDs([$0])) })
    }

    @Test func anotherLibraryOnTheFileSeesItsCommitsThroughObserve() async throws {
        for number in 0..<5 { try library.albums.append(.sample("n\(number)")) }
        let counts = other.observe { try await $0.albums.count() }
        let library = library
        let reader = Task {
            var seen: [Int] = []
            do {
                for try await count in counts {
                    seen.append(count)
                    if count == 5 && seen.count == 1 {
                        for number in 5..<8 { try library.albums.append(.sample("n\(number)")) }
                    }
                    if count == 8 { break }
                }
            } catch {
                Issue.record("\(error)")
            }
            return seen
        }
        let seen = await value(of: reader)
        #expect(seen?.first == 5)
        #expect(seen?.last == 8)
    }

    @Test func anotherProcesssCommitsAreSeen() async throws {
        let stream = library.changes
        // 30 transactions of the sqlite3 shell, through the change log's triggers.
        let inserts = (0..<30).map {
            "INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (\($0), 'n\($0)', 'A', 0, 0);"
        }
        try SQLiteShell.run(inserts.joined(separator: "\n"), on: library.path)

        let sets = await stream.collect { $0.insertedAlbums.count >= 30 }
        let stored = try await library.albums.page(limit: 100).map(\.album.id)
        #expect(stored.count == 30)
        #expect(sets?.insertedAlbums == stored)
    }

    @Test func aReadOnlyLibrarySeesTheCommitsOfAWriter() async throws {
        let viewer = try Library.open(at: directory.file("library.sqlite"), configuration: .init(access: .readOnly))
        let stream = viewer.changes
        let album = try library.albums.append(.sample("Low"))

        #expect(await stream.collect { _ in true }?.first?.albums.inserted == RowIDs([album.id]))
    }

    @Test(arguments: [false, true])
    func aSubscriptionMadeAfterCommitsGetsNoneOfThem(markerFromTheOtherLibrary: Bool) async throws {
        for number in 0..<5 { try library.albums.append(.sample("before \(number)")) }
        let stream = other.changes

        let marker = try (markerFromTheOtherLibrary ? library : other).albums.append(.sample("marker"))
        let sets = await stream.collect { _ in true }
        #expect(sets?.first?.albums == TableChanges(inserted: RowIDs([marker.id])))
    }
}
