import AlbumStore
import Foundation
import Testing

struct ShowTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test func showPrintsEveryFieldOnALabelledLine() throws {
        try store.add("First")
        let album = try store.add("Low", by: "David Bowie", "--genre", "Rock", "--year", "1977",
                                  "--cover-url", "https://example.com/low.jpg", "--external-id", "d:1")
        let date = ISO8601Timestamp.string(from: album.createdAt)

        let result = try store.run("show", String(album.id))

        #expect(result.status == 0)
        #expect(result.stdout == """
            Index        1
            ID           \(album.id)
            Title        Low
            Artist       David Bowie
            Genre        Rock
            Year         1977
            Cover URL    https://example.com/low.jpg
            External ID  d:1
            Added        \(date)
            Updated      \(date)

            """)
    }

    @Test func showLeavesEmptyFieldsBlank() throws {
        let album = try store.add("Low")

        let result = try store.run("show", String(album.id))

        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains("Genre"))
        #expect(lines.contains("Year"))
        #expect(lines.contains("Cover URL"))
        #expect(lines.contains("External ID"))
    }

    @Test func showJSONIsAOneElementArrayWithTheAlbumAndItsIndex() throws {
        try store.add(titles: ["A", "B"])
        let album = try store.add("Low", "--year", "1977")

        let result = try store.run("show", String(album.id), "--format", "json")

        #expect(result.status == 0)
        #expect(try decodeJSON([PrintedAlbum].self, from: result.stdout) == [album])
    }

    @Test func showCSVPrintsTheHeaderAndOneRow() throws {
        let album = try store.add("Low")

        let result = try store.run("show", String(album.id), "--format", "csv")

        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first == "index,id,title,artist,genre,year,cover_url,external_id,created_at,updated_at")
        #expect(lines.last?.hasPrefix("0,\(album.id),Low,Artist,") == true)
    }

    @Test func showOfAnUnknownIDIsRefused() throws {
        try store.add("Low")

        let result = try store.run("show", "42")

        expectRefused(result, saying: "no album with id 42")
    }
}
