// The query API as an app uses it, importing AlbumStore alone: queries parsed and built in code,
// sorts, counts, stats, streaming into a writer, and the errors a caller can show.
import AlbumStore
import Foundation
import Testing

struct QueryAPITests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("albumstore-query-api-\(UUID().uuidString)")

    @Test func anAppQueriesTheAlbums() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try Library.open(at: folder.appendingPathComponent("library.sqlite"))
        try library.albums.append(contentsOf: [
            AlbumDraft(title: "Low", artist: "David Bowie", genre: "Rock", year: 1977),
            AlbumDraft(title: "Homogenic", artist: "Björk", genre: "Electronic", year: 1997),
            AlbumDraft(title: "Disintegration", artist: "The Cure", genre: "Rock", year: 1989),
        ])
        let built = AlbumQuery([.init(.contains(.genre, "ROCK")), .init(.range(.year, from: 1980, through: nil))])
        #expect(try AlbumQuery(parsing: "genre:ROCK year:1980..") == built)
        #expect(try await library.albums.albums(matching: built).map(\.title) == ["Disintegration"])
        #expect(try await library.albums.albums(matching: .all, sortedBy: AlbumSort([.init(.artist)])).map(\.artist)
            == ["Björk", "The Cure", "David Bowie"])
        #expect(try library.albums.count(matching: AlbumQuery([.init(.text("bjork"))])) == 1)
        #expect(try library.albums.stats(matching: AlbumQuery([.init(.equals(.genre, "Rock"))])).albums == 2)

        let either = AlbumQuery(anyOf: [[.init(.text("low"))], [.init(.missing(.genre), negated: true)]])
        #expect(try await library.albums.albums(matching: either, sortedBy: AlbumSort([.init(.year, descending: true)]), limit: 1)
            .map(\.title) == ["Homogenic"])

        do {
            _ = try AlbumQuery(parsing: "year:soon")
            Issue.record("parsed")
        } catch {
            #expect(error.located?.token == "soon")
            #expect(error.description.hasSuffix("year:soon\n     ^^^^"))
        }
        #expect(AlbumField.queryable.contains(.externalID) && !AlbumField.queryable.contains(.index))
        #expect(AlbumField.sortable.contains(.createdAt))
    }
}
