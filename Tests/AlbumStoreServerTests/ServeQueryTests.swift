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

    /// The tops list 10 genres and artists unless `top` asks for more (up to 100): a page can
    /// show every genre of a library of 15.
    @Test func statsListAsManyTopGenresAsAsked() async throws {
        let fixture = try ServerFixture()
        _ = try fixture.library.albums.append(contentsOf: (1...13).map { AlbumDraft(title: "Album \($0)", artist: "Artist \($0)", genre: "Genre \($0)") })
        try await fixture.withClient { client in
            let usual = try await client.execute(uri: "/api/stats")
            #expect((usual.object["top_genres"] as? [Any])?.count == 10 && usual.object["genres"] as? Int == 15)
            let more = try await client.execute(uri: "/api/stats?top=25")
            #expect(more.status == .ok)
            #expect((more.object["top_genres"] as? [Any])?.count == 15 && (more.object["top_artists"] as? [Any])?.count == 16)
            let jazz = try await client.execute(uri: "/api/stats?q=genre:jazz&top=1")
            #expect((jazz.object["top_artists"] as? [[String: Any]])?.map { $0["name"] as? String } == ["John Coltrane"])
            for (top, error) in [("0", "top: 0 is not between 1 and 100"), ("101", "top: 101 is not between 1 and 100"),
                                 ("many", "top: \"many\" is not a whole number")] {
                let bad = try await client.execute(uri: "/api/stats?top=\(top)")
                #expect(bad.status == .badRequest && bad.error == error)
            }
        }
    }
}
