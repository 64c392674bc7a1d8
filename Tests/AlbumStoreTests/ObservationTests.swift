import Foundation
import AlbumSQLite
import Testing
@testable import AlbumStore

/// Observed queries: `library.observe`.
struct ObservationTests {
    let directory = try! TemporaryDirectory()
    let library: Library

    init() throws { library = try Library.open(at: directory.file("library.sqlite")) }

    @Test func anObservedQueryYieldsNowAndAfterEveryRelevantCommit() async throws {
        var titles = library.observe { try $0.titles() }.makeAsyncIterator()
        #expect(try await titles.next() == [])

        try library.albums.append(.sample("Low"))
        #expect(try await titles.next() == ["Low"])
        try library.albums.insert(.sample("Heroes"), at: 0)
        #expect(try await titles.next() == ["Heroes", "Low"])
    }

    @Test func anObservedQueryDoesNotRefireForOtherTables() async throws {
        let unrelated = library.observe(["covers"]) { try $0.albums.count() }
        let counts = Task {
            var seen: [Int] = []
            for try await count in unrelated { seen.append(count) }
            return seen
        }
        var albums = library.observe { try $0.albums.count() }.makeAsyncIterator()
        #expect(try await albums.next() == 0)
        try library.albums.append(.sample("Low"))
        #expect(try await albums.next() == 1)

        try await Task.sleep(for: .milliseconds(200))
        counts.cancel()
        #expect(try await counts.value == [0])
    }

    @Test func changesArrivingDuringARecomputationAreCoalesced() async throws {
        var counts = library.observe { try $0.albums.count() }.makeAsyncIterator()
        #expect(try await counts.next() == 0)
        for number in 0..<50 { try library.albums.append(.sample("n\(number)")) }

        // Every value is current when computed; 50 commits never give 50 values.
        var seen: [Int] = []
        while seen.last != 50 { seen.append(try await counts.next()!) }
        #expect(seen.count < 50)
        #expect(seen == seen.sorted())
    }
}
