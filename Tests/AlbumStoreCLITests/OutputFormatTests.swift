import AlbumStore
import Foundation
import Testing

struct OutputFormatTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    static let dataHeader = ["index", "id", "title", "artist", "genre", "year", "cover_url", "external_id", "created_at", "updated_at"]

    @Test func jsonObjectsHaveExactlyTheDocumentedKeysWithNullForMissingFields() throws {
        try store.add("Low")

        let result = try store.run("list", "--format", "json")

        let objects = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(objects.count == 1)
        #expect(Set(objects[0].keys) == Set(Self.dataHeader))
        #expect(objects[0]["genre"] is NSNull)
        #expect(objects[0]["year"] is NSNull)
        #expect(objects[0]["cover_url"] is NSNull)
        #expect(objects[0]["external_id"] is NSNull)
    }

    @Test func jsonObjectsHaveTheDocumentedKeysInTheDocumentedOrder() throws {
        try store.add("Low", by: "David Bowie", "--genre", "Rock", "--year", "1977", "--external-id", "d:1")

        let result = try store.run("list", "--format", "json")

        let keys = result.stdout.matches(of: /"([a-z_]+)":/).map { String($0.output.1) }
        #expect(keys == Self.dataHeader)
        #expect(result.stdout.hasPrefix(#"[{"index":0,"id":1,"title":"Low","artist":"David Bowie","genre":"Rock","year":1977,"cover_url":null,"external_id":"d:1","created_at":""#))
    }

    @Test func jsonDatesAreISO8601InUTCWithMilliseconds() throws {
        try store.add("Low")

        let result = try store.run("list", "--format", "json")

        let objects = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let created = try #require(objects.first?["created_at"] as? String)
        #expect(created.wholeMatch(of: printedDate) != nil)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let parsed = try #require(formatter.date(from: created))
        #expect(abs(parsed.timeIntervalSinceNow) < 60)
    }

    @Test func jsonIsOneArrayWithAnObjectALine() throws {
        try store.add(titles: ["A", "B", "C"])

        let result = try store.run("list", "--format", "json")

        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines[3] == "")
        #expect(lines[0].hasPrefix(#"[{"index":0,"#) && lines[0].hasSuffix("},"))
        #expect(lines[1].hasPrefix(#"{"index":1,"#) && lines[1].hasSuffix("},"))
        #expect(lines[2].hasPrefix(#"{"index":2,"#) && lines[2].hasSuffix("}]"))
    }

    @Test func jsonOfAnEmptyListIsAnEmptyArray() throws {
        try store.run("init")
        let result = try store.run("list", "--format", "json")

        #expect(result.status == 0)
        #expect(result.stdout == "[]\n")
    }

    @Test func jsonDecodesAsTheLibrarysAlbums() throws {
        let added = try store.add("Low", by: "David Bowie", "--year", "1977", "--cover-url", "https://example.com/a/b.jpg")

        let result = try store.run("list", "--format", "json")

        let albums = try JSONDecoder().decode([Album].self, from: Data(result.stdout.utf8))
        #expect(albums.map(\.id) == [added.id])
        #expect(albums.first?.coverURL == "https://example.com/a/b.jpg")
        #expect(albums.first?.createdAt == added.createdAt)
    }

    @Test func jsonDecodesToTheAlbumsAddedInOrder() throws {
        let added = try store.add(titles: ["A", "B", "C"])

        let result = try store.run("list", "--format", "json")

        #expect(result.status == 0)
        #expect(try decodeJSON([PrintedAlbum].self, from: result.stdout) == added)
    }

    @Test func ndjsonPrintsOneCompactObjectPerLine() throws {
        let added = try store.add(titles: ["A", "B"])

        let result = try store.run("list", "--format", "ndjson")

        #expect(result.stdout.hasSuffix("\n"))
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 2)
        let decoded = try lines.map { try decodeJSON(PrintedAlbum.self, from: String($0)) }
        #expect(decoded == added)
    }

    @Test func ndjsonOfAnEmptyListPrintsNothing() throws {
        try store.run("init")
        let result = try store.run("list", "--format", "ndjson")

        #expect(result.status == 0)
        #expect(result.stdout == "")
    }

    @Test func csvHasAHeaderLineAndOneLinePerAlbum() throws {
        let album = try store.add("Low", by: "David Bowie", "--genre", "Rock", "--year", "1977", "--external-id", "d:1")
        let date = ISO8601Timestamp.string(from: album.createdAt)

        let result = try store.run("list", "--format", "csv")

        #expect(result.stdout == """
            index,id,title,artist,genre,year,cover_url,external_id,created_at,updated_at
            0,\(album.id),Low,David Bowie,Rock,1977,,d:1,\(date),\(date)

            """)
    }

    @Test func csvOfAnEmptyListPrintsOnlyTheHeader() throws {
        try store.run("init")
        let result = try store.run("list", "--format", "csv")

        #expect(result.stdout == Self.dataHeader.joined(separator: ",") + "\n")
    }

    @Test func csvQuotesAFieldWithACommaAndAQuoteByDoublingTheQuote() throws {
        try store.add(#"Hello, "World""#, by: "X")

        let result = try store.run("list", "--format", "csv")

        let row = try #require(result.stdout.split(separator: "\n").last)
        #expect(row.hasPrefix(#"0,1,"Hello, ""World""",X,"#))
    }

    @Test func csvQuotesAFieldWithALineBreak() throws {
        try store.add("Line\nBreak", by: "X")

        let result = try store.run("list", "--format", "csv")

        #expect(result.stdout.contains("\n0,1,\"Line\nBreak\",X,"))
    }

    @Test func tsvHasAHeaderLineAndTabSeparatedFields() throws {
        let album = try store.add("Low", by: "David Bowie", "--year", "1977")
        let date = ISO8601Timestamp.string(from: album.createdAt)

        let result = try store.run("list", "--format", "tsv")

        #expect(result.stdout == Self.dataHeader.joined(separator: "\t") + "\n"
            + ["0", String(album.id), "Low", "David Bowie", "", "1977", "", "", date, date].joined(separator: "\t") + "\n")
    }

    @Test func tsvEscapesTabsLineBreaksAndBackslashes() throws {
        try store.add("Tab\there\nnew\\line", by: "X")

        let result = try store.run("list", "--format", "tsv")

        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[1].split(separator: "\t", omittingEmptySubsequences: false)[2] == #"Tab\there\nnew\\line"#)
    }

    @Test func tsvLeavesCommasAndQuotesAlone() throws {
        try store.add(#"Hello, "World""#, by: "X")

        let result = try store.run("list", "--format", "tsv")

        #expect(result.stdout.contains("\t\(#"Hello, "World""#)\t"))
    }

    @Test(arguments: ["json", "ndjson", "csv", "tsv"])
    func dataFormatsPrintNothingButDataOnStdout(format: String) throws {
        let result = try store.run("add", "--title", "Low", "--artist", "X", "--format", format)

        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(!result.stdout.contains("#  Artist"))
    }

    @Test(arguments: ["table", "json", "ndjson", "csv", "tsv"])
    func aReaderThatGoesAwayEndsTheListingQuietlyWithExitZero(format: String) throws {
        // Far more output than a pipe holds, so the listing is still writing when the reader leaves.
        let library = try Library.open(at: URL(fileURLWithPath: store.db))
        try library.albums.append(contentsOf: (0..<3_000).map { AlbumDraft(title: "Album \($0)", artist: "Artist") })
        let list = try BackgroundProcess(binary: store.cli.binary, arguments: ["list", "--format", format],
                                         environment: store.cli.environment, directory: store.cli.directory)

        list.closeStdout()

        #expect(list.exitStatus() == 0)
        #expect(list.stderrText == "")
    }

    @Test func anUnknownFormatIsAUsageError() throws {
        let result = try store.run("list", "--format", "xml")

        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("'xml'"))
    }
}
