import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// Observed queries: `library.observe`.
struct ObservationTests {
    let directory: TemporaryDirectory
    let library: Library

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
    }

    @Test func anObservedQueryYieldsNowAndAfterEveryRelevantCommit() async throws {
        var titles = library.observe { try $0.titles() }.makeAsyncIterator()
        #expect(try await titles.next() == [])

        try library.albums.append(.sample("Low"))
        #expect(try await titles.next() == ["Low"])
        try library.albums.insert(.sample("Heroes"), at: 0)
        #expect(try await titles.next() == ["Heroes", "Low"])
    }

    @Test func twoConsumersOfOneObservationEachGetEveryValueAndCancellingOneEndsOnlyIt() async throws {
        let counts = library.observe { try $0.albums.count() }
        // Each consumer reads its first value, then waits for the second commit's.
        let (ready, readySign) = AsyncStream<Void>.makeStream()
        func consume() -> Task<[Int], Error> {
            Task {
                var seen: [Int] = []
                for try await count in counts {
                    seen.append(count)
                    if seen.count == 1 { readySign.yield() }
                    if count == 2 { break }
                }
                return seen
            }
        }
        let first = consume(), second = consume(), cancelled = consume()
        _ = try await withAsyncDeadline { await ready.prefix(3).reduce(0) { count, _ in count + 1 } }
        cancelled.cancel()
        #expect(try await cancelled.value == [0])
        try library.albums.append(.sample("Low"))
        try library.albums.append(.sample("Heroes"))
        for consumer in [first, second] {
            let seen = try await consumer.value
            #expect(seen.first == 0 && seen.last == 2, "\(seen)")
        }
    }

    @Test func anObservedQueryDoesNotRefireForOtherTables() async throws {
        let unrelated = library.observe([.covers]) { library in
            "\(try await library.albums.count()) albums, \(try library.covers.stats().albumsWithCover) covers"
        }
        // Read as they come (a value not read before the next replaces it), up to the cover's.
        let (firstSeen, sign) = AsyncStream<Void>.makeStream()
        let values = Task {
            var seen: [String] = []
            do {
                for try await value in unrelated {
                    seen.append(value)
                    sign.yield()
                    if value.hasSuffix("1 covers") { break }
                }
            } catch {
                seen.append("\(error)")
            }
            return seen
        }
        _ = try await withAsyncDeadline { await firstSeen.first { _ in true } }
        var albums = library.observe { try $0.albums.count() }.makeAsyncIterator()
        #expect(try await albums.next() == 0)
        let low = try library.albums.append(.sample("Low"))
        #expect(try await albums.next() == 1)

        // The marker: a change to covers must come, and nothing before it.
        try library.covers.set(albumID: low.id, data: TestImages.gif(width: 1, height: 1))

        #expect(await value(of: values) == ["0 albums, 0 covers", "1 albums, 1 covers"])
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

extension ObservationTests {
    @Test func theObservedTablesAreTheOnesTheSchemaObserves() {
        #expect(Set(ObservedTable.allCases.map(\.name)) == Set(TableDescription.all.filter(\.isObserved).map(\.name)))
    }
}
