import Foundation
import Testing
@testable import AlbumStore

/// JSON and NDJSON catalogs read as a stream: the shapes accepted, every kind of value, escapes,
/// the lines records start on, and syntax errors named by line.
struct JSONReaderTests {
    private func json(_ text: String, chunkSize: Int = 64 * 1024) throws -> ReadCatalog {
        try ReadCatalog.all(JSONReader(over: CatalogInput(text, chunkSize: chunkSize)))
    }

    private func ndjson(_ text: String, chunkSize: Int = 64 * 1024) throws -> ReadCatalog {
        try ReadCatalog.all(NDJSONReader(over: CatalogInput(text, chunkSize: chunkSize)))
    }

    @Test(arguments: [1, 2, 5, 64 * 1024])
    func anArrayOfObjectsGivesARecordPerObjectStartingOnItsLine(chunkSize: Int) throws {
        let catalog = try json("""
            [
              {"title": "Low", "artist": "David Bowie", "year": 1977, "genre": null},
              {
                "title": "Heroes", "year": 1.977e3, "compilation": false, "live": true,
                "tags": ["a", {"b": [1, 2]}], "extra": {"x": null}
              }
            ]
            """, chunkSize: chunkSize)

        #expect(catalog.columns == ["title", "artist", "year", "genre", "compilation", "live", "tags", "extra"])
        #expect(catalog.rows == [
            ["title": "Low", "artist": "David Bowie", "year": "#1977"],
            ["title": "Heroes", "year": "#1.977e3", "compilation": "false", "live": "true", "tags": "{…}", "extra": "{…}"],
        ])
        #expect(catalog.lines == [2, 3])
        #expect(catalog.problems == [nil, nil])
    }

    @Test func anObjectHoldingAnArrayOfObjectsIsReadUnderItsFirstSuchKey() throws {
        let catalog = try json("""
            {"version": 2, "empty": [], "numbers": [1, 2], "meta": {"albums": "no"},
             "albums": [{"title": "Low"}, {"title": "Heroes"}],
             "more": [{"title": "not read"}]}
            """)
        #expect(catalog.rows == [["title": "Low"], ["title": "Heroes"]])
        #expect(catalog.lines == [2, 2])
    }

    @Test func anObjectWithOnlyAnEmptyArrayHasNoRecords() throws {
        #expect(try json(#"{"albums": []}"#).records.isEmpty)
        #expect(try json("[]").records.isEmpty)
    }

    @Test func anObjectWithoutAnArrayOfObjectsCannotBeRead() throws {
        #expect(throws: CatalogError(line: 1, reason: #"holds no array of album objects: expected [{...}, ...] or {"albums": [{...}, ...]}"#)) {
            try json(#"{"title": "Low", "artist": "David Bowie"}"#)
        }
    }

    @Test func stringEscapesAreUndoneIncludingSurrogatePairs() throws {
        let catalog = try json(#"[{"title": "a\"b\\c\/d\b\f\n\r\t\u00e9\u6771\ud83c\udfb6 \ud800x", "k\u0065y": "v"}]"#, chunkSize: 3)
        #expect(catalog.rows == [["title": "a\"b\\c/d\u{8}\u{C}\n\r\té東🎶 \u{FFFD}x", "key": "v"]])
    }

    @Test func aSyntaxErrorNamesTheLineAndWhatWasExpected() throws {
        #expect(throws: CatalogError(line: 3, reason: "expected ',' or '}' after a value, found '\"'")) {
            try json("[\n{\"title\": \"Low\"},\n{\"title\": \"Heroes\" \"artist\": \"Bowie\"}\n]")
        }
        #expect(throws: CatalogError(line: 2, reason: "expected ':' after the key \"title\", found '\"'")) {
            try json("[\n{\"title\" \"Low\"}]")
        }
        #expect(throws: CatalogError(line: 1, reason: "expected ',' or ']' after an album object, found the end of the file")) {
            try json("[{\"title\": \"Low\"}")
        }
        #expect(throws: CatalogError(line: 1, reason: "expected a value, found 'x'")) { try json("[{\"a\": x}]") }
        #expect(throws: CatalogError(line: 1, reason: "expected a digit after '.', found '}'")) { try json("[{\"a\": 1.}]") }
        #expect(throws: CatalogError(line: 2, reason: "expected the end of the file, found '['")) { try json("[]\n[]") }
        #expect(throws: CatalogError(line: 1, reason: "expected a JSON array of album objects ('[') or an object holding one ('{'), found the end of the file")) {
            try json("")
        }
    }

    @Test func anElementThatIsNotAnObjectIsARecordWithAProblem() throws {
        let catalog = try json("[{\"title\": \"Low\"},\n\"Heroes\",\n[1],\n{\"title\": \"Lodger\"}]")
        #expect(catalog.problems == [nil, "is a string, not an album object", "is an array, not an album object", nil])
        #expect(catalog.lines == [1, 2, 3, 4])
    }

    @Test func aStringThatIsNotUTF8IsARecordProblem() throws {
        let bytes = Array(#"[{"title": "Caf"#.utf8) + [0xE9] + Array(#""}, {"title": "ok"}]"#.utf8)
        let input = try CatalogInput(data: Data(bytes), encoding: .utf8)
        let catalog = try ReadCatalog.all(JSONReader(over: input))
        #expect(catalog.problems == ["has text that is not valid UTF-8", nil])
        #expect(catalog.rows[0] == ["title": "Caf\u{FFFD}"])
    }

    @Test func theJSONExportReadsBackAsItWas() throws {
        let albums: [Album] = [
            .sample(id: 1, title: "Low \"remastered\"\n", genre: nil, externalID: "discogs:123"),
            .sample(id: 2, title: "Björk 🎶", artist: "A\\B", year: nil, coverURL: nil),
        ]
        let sink = MemorySink()
        let writer = JSONWriter(to: sink)
        for (index, album) in albums.enumerated() { try writer.write(album, index: index) }
        try writer.finish()

        let catalog = try ReadCatalog.all(JSONReader(over: CatalogInput(data: Data(sink.bytes), chunkSize: 7)))

        #expect(catalog.columns == ["index", "id", "title", "artist", "genre", "year", "cover_url", "external_id", "created_at", "updated_at"])
        #expect(catalog.rows.map { $0["title"] } == albums.map(\.title))
        #expect(catalog.rows.map { $0["artist"] } == albums.map(\.artist))
        #expect(catalog.rows.map { $0["genre"] } == [nil, "Rock"])
        #expect(catalog.rows.map { $0["year"] } == ["#1977", nil])
        #expect(catalog.rows.map { $0["external_id"] } == ["discogs:123", nil])
        #expect(catalog.rows.map { $0["created_at"] } == ["2026-11-22T01:51:30.123Z", "2026-11-22T01:51:30.123Z"])
        #expect(catalog.lines == [1, 2])
    }

    @Test func aRepeatedKeyKeepsItsLastValue() throws {
        let catalog = try json(#"[{"title": "A", "title": "B", "genre": "x", "genre": null}]"#)
        #expect(catalog.rows == [["title": "B"]])
    }

    @Test func aNullAfterARepeatedKeyForgetsItAndALaterValueComesBack() throws {
        let catalog = try json(#"[{"a": 1, "b": 2, "a": 3, "a": null, "c": 4, "a": 5}, {"a": null, "b": 6}]"#)
        #expect(catalog.records.map { $0.values.map { catalog.columns[$0.column] } } == [["b", "c", "a"], ["b"]])
        #expect(catalog.rows == [["a": "#5", "b": "#2", "c": "#4"], ["b": "#6"]])
    }

    @Test(.timeLimit(.minutes(1))) func anObjectOfManyKeysIsReadInLinearTime() throws {
        // A search of the values read so far for each key (quadratic) took over a minute at
        // 25,000 keys, past the time limit; how fast the linear reading is belongs to the benchmarks.
        let count = 50_000
        var text = "[{"
        for number in 0..<count { text += "\"key \(number)\": \(number)," }
        text += "\"key 1\": null, \"key 2\": \"last\"}]"
        let catalog = try json(text)
        #expect(catalog.records.count == 1)
        #expect(catalog.records.first?.values.count == count - 1)
        #expect(catalog.rows.first?["key 1"] == nil && catalog.rows.first?["key 2"] == "last")
    }

    @Test func aLoneHighSurrogateBeforeAPairLeavesThePairWhole() throws {
        let catalog = try json(#"[{"title": "\ud800\ud83c\udfb5 \ud83c\u0041"}]"#)
        #expect(catalog.rows == [["title": "\u{FFFD}🎵 \u{FFFD}A"]])
    }

    @Test func aNumberWithALeadingZeroSaysSo() throws {
        #expect(throws: CatalogError(line: 1, reason: "a number cannot start with 0")) { try json(#"[{"year": 01977}]"#) }
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 10_000)
        #expect(throws: CatalogError.self) { try json("[{\"a\": \(deep)}]") }
    }

    // MARK: NDJSON

    @Test(arguments: [1, 3, 64 * 1024])
    func ndjsonReadsAnObjectALineAndSkipsBlankLines(chunkSize: Int) throws {
        let catalog = try ndjson("{\"title\":\"Low\",\"year\":1977}\n\n  \r\n{\"title\":\"Heroes\"}\r\n{\"title\":\"Lodger\"}", chunkSize: chunkSize)
        #expect(catalog.rows == [["title": "Low", "year": "#1977"], ["title": "Heroes"], ["title": "Lodger"]])
        #expect(catalog.lines == [1, 4, 5])
    }

    @Test func aBadNDJSONLineIsARecordWithAProblemAndReadingGoesOn() throws {
        let catalog = try ndjson("""
            {"title":"Low"}
            {"title": "Heroes",
            {"title":"broken"
            "just a string"
            {"title":"a"} {"title":"b"}
            {"title":"Lodger"}
            """)
        #expect(catalog.problems == [
            nil,
            "is not valid JSON: expected a key (a string in double quotes), found the end of the line",
            "is not valid JSON: expected ',' or '}' after a value, found the end of the line",
            "is a string, not an album object",
            "is not valid JSON: expected the end of the line after the object, found '{'",
            nil,
        ])
        #expect(catalog.lines == [1, 2, 3, 4, 5, 6])
        #expect(catalog.rows.last == ["title": "Lodger"])
    }

    @Test func theNDJSONExportReadsBack() throws {
        let sink = MemorySink()
        let writer = NDJSONWriter(to: sink)
        try writer.write(.sample(title: "Low"), index: nil)
        try writer.write(.sample(title: "Heroes"), index: nil)
        try writer.finish()
        let catalog = try ReadCatalog.all(NDJSONReader(over: CatalogInput(data: Data(sink.bytes))))
        #expect(catalog.rows.map { $0["title"] } == ["Low", "Heroes"])
        #expect(catalog.problems == [nil, nil])
    }
}
