import Foundation
import Testing
@testable import AlbumStore

/// Each writer's exact bytes: escaping, null against empty, key and column order, dates.
struct InterchangeWriterTests {
    static let created = "2026-11-22T01:51:30.123Z"
    static let updated = "2026-11-22T01:52:00.000Z"
    static let header = "index,id,title,artist,genre,year,cover_url,external_id,created_at,updated_at\n"

    private func written(_ make: (MemorySink) -> any AlbumWriter, _ albums: [(Int?, Album)]) throws -> String {
        let sink = MemorySink()
        let writer = make(sink)
        for (index, album) in albums { try writer.write(album, index: index) }
        try writer.finish()
        return sink.text
    }

    // MARK: JSON

    @Test func jsonWritesTheDocumentedKeysInOrderWithNullForMissingFields() throws {
        let album = Album.sample(genre: nil, externalID: "discogs:123")

        let text = try written(JSONWriter.init, [(0, album)])

        #expect(text == """
            [{"index":0,"id":7,"title":"Low","artist":"David Bowie","genre":null,"year":1977,\
            "cover_url":"https://example.com/low.jpg","external_id":"discogs:123",\
            "created_at":"\(Self.created)","updated_at":"\(Self.updated)"}]

            """)
    }

    @Test func jsonLeavesOutTheIndexWhenItIsNotKnown() throws {
        let text = try written(JSONWriter.init, [(nil, .sample(year: nil, coverURL: nil))])

        #expect(text == """
            [{"id":7,"title":"Low","artist":"David Bowie","genre":"Rock","year":null,"cover_url":null,"external_id":null,\
            "created_at":"\(Self.created)","updated_at":"\(Self.updated)"}]

            """)
    }

    @Test func jsonSeparatesObjectsWithACommaAndALineBreak() throws {
        let text = try written(JSONWriter.init, [(0, .sample(id: 1, title: "A")), (1, .sample(id: 2, title: "B"))])

        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix(#"[{"index":0,"id":1,"title":"A""#) && lines[0].hasSuffix("},"))
        #expect(lines[1].hasPrefix(#"{"index":1,"id":2,"title":"B""#) && lines[1].hasSuffix("}]"))
        #expect(lines[2] == "")
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [[String: Any]])
    }

    @Test func jsonOfNoAlbumsIsAnEmptyArray() throws {
        #expect(try written(JSONWriter.init, []) == "[]\n")
    }

    @Test(arguments: [
        (#"say "hi""#, #""say \"hi\"""#),
        (#"back\slash"#, #""back\\slash""#),
        ("line\nbreak\rreturn\ttab", #""line\nbreak\rreturn\ttab""#),
        ("\u{8}\u{C}", #""\b\f""#),
        ("nul\u{0}bell\u{7}esc\u{1B}unit\u{1F}", #""nul\u0000bell\u0007esc\u001bunit\u001f""#),
        // Valid raw in JSON, but a terminal acts on DEL and the C1 controls (CSI U+009B).
        ("del\u{7F} csi\u{9B} nel\u{85}", #""del\u007f csi\u009b nel\u0085""#),
        ("no-break\u{A0}space stays", "\"no-break\u{A0}space stays\""),
        ("https://example.com/a/b", #""https://example.com/a/b""#),
        ("Björk — Homogenic 東京 🎶", #""Björk — Homogenic 東京 🎶""#),
        ("", #""""#),
    ])
    func jsonEscapesStringsAsRFC8259Says(text: String, literal: String) throws {
        let output = try written(NDJSONWriter.init, [(nil, .sample(title: text))])

        #expect(output.contains(#""title":\#(literal),"artist""#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(object["title"] as? String == text)
    }

    @Test func jsonKeepsAnEmptyTextApartFromNull() throws {
        let output = try written(NDJSONWriter.init, [(nil, .sample(genre: "", coverURL: nil))])

        #expect(output.contains(#""genre":"","year":1977,"cover_url":null"#))
    }

    // MARK: NDJSON

    @Test func ndjsonWritesOneObjectALineEachEndingInALineFeed() throws {
        let albums = [Album.sample(id: 1, title: "Line\nBreak"), .sample(id: 2, title: "B")]

        let text = try written(NDJSONWriter.init, [(0, albums[0]), (1, albums[1])])

        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2] == "")
        #expect(lines[0] == """
            {"index":0,"id":1,"title":"Line\\nBreak","artist":"David Bowie","genre":"Rock","year":1977,\
            "cover_url":"https://example.com/low.jpg","external_id":null,\
            "created_at":"\(Self.created)","updated_at":"\(Self.updated)"}
            """)
        #expect(try lines.dropLast().map { try JSONDecoder().decode(Album.self, from: Data($0.utf8)) } == albums)
    }

    @Test func ndjsonOfNoAlbumsIsNothing() throws {
        #expect(try written(NDJSONWriter.init, []) == "")
    }

    // MARK: CSV

    @Test func csvWritesAHeaderThenOneLinePerAlbumWithLineFeeds() throws {
        let text = try written({ CSVWriter(to: $0) }, [(0, .sample(genre: nil, externalID: "discogs:123"))])

        #expect(text == Self.header + """
            0,7,Low,David Bowie,,1977,https://example.com/low.jpg,discogs:123,\(Self.created),\(Self.updated)

            """)
        #expect(!text.contains("\r"))
    }

    @Test func csvOfNoAlbumsIsTheHeaderAlone() throws {
        #expect(try written({ CSVWriter(to: $0) }, []) == Self.header)
    }

    @Test func csvWithoutTheIndexColumnWritesTheStoredFields() throws {
        let text = try written({ CSVWriter(to: $0, fields: AlbumField.stored) }, [(3, .sample())])

        #expect(text.hasPrefix("id,title,artist,genre,year,cover_url,external_id,created_at,updated_at\n7,Low,"))
    }

    @Test func csvLeavesTheIndexEmptyWhenItIsNotKnown() throws {
        let text = try written({ CSVWriter(to: $0) }, [(nil, .sample())])

        #expect(text.hasPrefix(Self.header + ",7,Low,"))
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("Hello, World", #""Hello, World""#),
        (#"say "hi""#, #""say ""hi""""#),
        (#"""#, #""""""#),
        ("line\nbreak", "\"line\nbreak\""),
        ("carriage\rreturn", "\"carriage\rreturn\""),
        ("crlf\r\n", "\"crlf\r\n\""),
        ("tab\tstays", "tab\tstays"),
        (#"back\slash"#, #"back\slash"#),
        ("Björk, 東京 🎶", "\"Björk, 東京 🎶\""),
        ("'single'", "'single'"),
        (" spaced ", " spaced "),
        (#""quoted" first"#, #""""quoted"" first""#),
        (#"last "quoted""#, #""last ""quoted""""#),
        (",", #"",""#),
    ])
    func csvQuotesFieldsWithCommasQuotesAndLineBreaks(text: String, field: String) throws {
        let output = try written({ CSVWriter(to: $0) }, [(0, .sample(title: text, artist: "X"))])

        #expect(output == Self.header + "0,7,\(field),X,Rock,1977,https://example.com/low.jpg,,\(Self.created),\(Self.updated)\n")
    }

    @Test func csvWritesNullAsNothingAndEmptyTextAsTwoQuotes() throws {
        let sink = MemorySink()
        let writer = CSVWriter(to: sink, header: ["a", "b", "c"])

        try writer.write(row: [nil, "", "x"])
        try writer.finish()

        #expect(sink.text == "a,b,c\n,\"\",x\n")
    }

    @Test func csvRowsOfTextEscapeTheHeaderToo() throws {
        let sink = MemorySink()
        let writer = CSVWriter(to: sink, header: ["name, full", "note"])

        try writer.write(row: ["a", "b\"c"])
        try writer.finish()

        #expect(sink.text == "\"name, full\",note\na,\"b\"\"c\"\n")
    }

    // MARK: TSV

    @Test func tsvWritesAHeaderThenTabSeparatedLines() throws {
        let text = try written({ TSVWriter(to: $0) }, [(0, .sample(genre: nil))])

        #expect(text == Self.header.replacingOccurrences(of: ",", with: "\t")
            + ["0", "7", "Low", "David Bowie", "", "1977", "https://example.com/low.jpg", "", Self.created, Self.updated]
            .joined(separator: "\t") + "\n")
    }

    @Test func tsvOfNoAlbumsIsTheHeaderAlone() throws {
        #expect(try written({ TSVWriter(to: $0) }, []) == Self.header.replacingOccurrences(of: ",", with: "\t"))
    }

    @Test(arguments: [
        ("tab\there", #"tab\there"#),
        ("line\nbreak", #"line\nbreak"#),
        ("carriage\rreturn", #"carriage\rreturn"#),
        (#"back\slash"#, #"back\\slash"#),
        (#"\n is not a line break"#, #"\\n is not a line break"#),
        (#"Hello, "World""#, #"Hello, "World""#),
        ("Björk 東京 🎶", "Björk 東京 🎶"),
        ("bell\u{7}", "bell\u{7}"),
        ("\\\t\n\r", #"\\\t\n\r"#),
        ("\tfirst and last\\", #"\tfirst and last\\"#),
    ])
    func tsvEscapesTabsLineBreaksAndBackslashes(text: String, field: String) throws {
        let output = try written({ TSVWriter(to: $0) }, [(0, .sample(title: text))])

        let line = try #require(output.split(separator: "\n").last)
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        #expect(fields.count == AlbumField.allCases.count)
        #expect(fields[2] == field)
    }

    @Test func tsvWritesNullAndEmptyTextAlikeAsNothing() throws {
        let sink = MemorySink()
        let writer = TSVWriter(to: sink, header: ["a", "b", "c"])

        try writer.write(row: [nil, "", "x"])
        try writer.finish()

        #expect(sink.text == "a\tb\tc\n\t\tx\n")
    }

    // MARK: Every writer

    static let writers: [@Sendable (any ByteSink) -> any AlbumWriter] = [
        { JSONWriter(to: $0) }, { NDJSONWriter(to: $0) }, { CSVWriter(to: $0) }, { TSVWriter(to: $0) },
    ]

    @Test(arguments: 0..<4)
    func finishFlushesTheSinkAndASecondFinishWritesNothingMore(writer number: Int) throws {
        let sink = RecordingSink()
        let writer = Self.writers[number](sink)
        try writer.write(.sample(), index: 0)

        try writer.finish()
        let after = sink.bytes
        try writer.finish()

        #expect(sink.flushes >= 1)
        #expect(sink.bytes == after)
    }

    @Test(arguments: 0..<4)
    func eachAlbumReachesTheSinkWhenItIsWrittenInOneWrite(writer number: Int) throws {
        let sink = RecordingSink()
        let writer = Self.writers[number](sink)

        for id in 1...3 {
            try writer.write(.sample(id: Int64(id)), index: id - 1)
            #expect(sink.writes.count == id)
        }
        #expect(String(decoding: sink.bytes, as: UTF8.self).contains("\(Self.updated)"))
    }

    @Test func everyWriterTakesTheSameDatesAndNumbers() throws {
        let album = Album.sample(id: -5, year: 1000, createdAt: -1, updatedAt: 253_402_300_799_999)

        for make in Self.writers {
            let text = try written({ make($0) }, [(Int.max, album)])
            #expect(text.contains("1969-12-31T23:59:59.999Z"))
            #expect(text.contains("9999-12-31T23:59:59.999Z"))
            #expect(text.contains("-5"))
            #expect(text.contains(String(Int.max)))
        }
    }
}
