import AlbumStore
import Foundation
import TestSupport
import Testing

/// `/api/query` and `/api/stats`: the query language of `albumstore query`.
struct ServeQueryTests {
    @Test func aQueryFindsWhatTheLibraryFinds() async throws {
        let fixture = try ServerFixture()
        let expected = try await fixture.library.albums.albums(matching: AlbumQuery(parsing: "genre:jazz")).map(\.title)
        try await fixture.withClient { client in
            let found = try await client.execute(uri: "/api/query?q=genre:jazz&sort=year", method: .get)
            #expect(found.status == .ok && found.object["total"] as? Int == 2)
            let albums = found.object["albums"] as? [[String: Any]] ?? []
            #expect(Set(albums.compactMap { $0["title"] as? String }) == Set(expected))
            // Sorted by year: Blue Train (1957) first; its place in the list is 2.
            #expect(albums.first?["title"] as? String == "Blue Train")
            #expect(albums.map { $0["index"] as? Int } == [0, 1] && albums.first?["list_index"] as? Int == 2)
        }
    }

    /// 500 terms, the documented limit, run (SQLite's expression depth was reached at 499).
    @Test func aQueryOfTheMostTermsRuns() async throws {
        let fixture = try ServerFixture()
        let terms = (0..<500).map { "%5Etitle:x\($0)" }.joined(separator: "%20")
        try await fixture.withClient { client in
            let found = try await client.execute(uri: "/api/query?q=\(terms)&limit=5")
            #expect(found.status == .ok, "\(found.error)")
            #expect(found.object["total"] as? Int == 3)
            let tooMany = try await client.execute(uri: "/api/query?q=\(terms)%20%5Etitle:y")
            #expect(tooMany.status == .badRequest && tooMany.error == "the query has 501 terms; at most 500 can run")
        }
    }

    @Test func aBadQueryNamesItsPlace() async throws {
        let fixture = try ServerFixture()
        try await fixture.withClient { client in
            let bad = try await client.execute(uri: "/api/query?q=miles%20year:abc", method: .get)
            #expect(bad.status == .badRequest)
            #expect(bad.error == "year takes a number or a range (year:1994, year:1990..1999), not \"abc\"")
            #expect(bad.object["offset"] as? Int == 11 && bad.object["length"] as? Int == 3)
            let badSort = try await client.execute(uri: "/api/query?q=&sort=colour", method: .get)
            #expect(badSort.status == .badRequest && badSort.error.contains("colour"))
        }
    }

    @Test func statsCountWhatAQueryMatches() async throws {
        let fixture = try ServerFixture()
        try await fixture.withClient { client in
            let stats = try await client.execute(uri: "/api/stats?q=genre:jazz", method: .get)
            #expect(stats.status == .ok && stats.object["albums"] as? Int == 2)
            let decades = stats.object["decades"] as? [[String: Any]] ?? []
            #expect(decades.map { $0["decade"] as? Int } == [1950])
            let all = try await client.execute(uri: "/api/stats", method: .get)
            #expect(all.object["albums"] as? Int == 3)
        }
    }
}
