import Foundation
import Testing
@testable import AlbumStore

/// The limits JSON and NDJSON catalogs share with CSV: a key or value over 1 MiB is its record's
/// problem and is not kept; an NDJSON line over 16 MiB stops the reading.
struct JSONSizeLimitTests {
    private static let long = String(repeating: "x", count: JSONScanner.fieldLimit + 10)

    private func json(_ text: String) throws -> ReadCatalog {
        try ReadCatalog.all(JSONReader(over: CatalogInput(text, chunkSize: 4096)))
    }

    private func ndjson(_ text: String) throws -> ReadCatalog {
        try ReadCatalog.all(NDJSONReader(over: CatalogInput(text, chunkSize: 4096)))
    }

    @Test func aValueOverOneMebibyteIsItsRecordsProblemAndIsNotKept() throws {
        let catalog = try json(#"[{"title": "Low", "genre": "\#(Self.long)"}, {"title": "Heroes"}]"#)
        #expect(catalog.problems == [#"the value of "genre" is over 1 MiB"#, nil])
        #expect(catalog.rows == [["title": "Low"], ["title": "Heroes"]])
    }

    @Test func aValueOfOneMebibyteExactlyIsKept() throws {
        let exact = String(repeating: "y", count: JSONScanner.fieldLimit)
        let catalog = try json(#"[{"genre": "\#(exact)"}]"#)
        #expect(catalog.problems == [nil])
        #expect(catalog.rows.first?["genre"]?.utf8.count == JSONScanner.fieldLimit)
    }

    @Test func aValueOverTheLimitOnceItsEscapesAreUndoneIsAProblem() throws {
        // Each `\n` is one byte undone: the limit counts the text, and the scratch buffer too.
        let escapes = String(repeating: #"\n"#, count: JSONScanner.fieldLimit + 1)
        let catalog = try json(#"[{"title": "\#(escapes)"}, {"title": "Heroes"}]"#)
        #expect(catalog.problems == [#"the value of "title" is over 1 MiB"#, nil])
    }

    @Test func aKeyOverOneMebibyteIsAProblemAndGetsNoColumn() throws {
        let catalog = try json(#"[{"title": "Low", "\#(Self.long)": 1}, {"title": "Heroes"}]"#)
        #expect(catalog.problems == ["key 2 is over 1 MiB", nil])
        #expect(catalog.columns == ["title"])
        #expect(catalog.rows == [["title": "Low"], ["title": "Heroes"]])
    }

    @Test func aLongStringInsideAnIgnoredNestedValueIsAProblemToo() throws {
        let catalog = try json(#"[{"title": "Low", "tracks": [{"notes": "\#(Self.long)"}]}]"#)
        #expect(catalog.problems == [#"the value of "tracks" is over 1 MiB"#])
    }

    @Test func aLongStringIsDroppedWhileItIsRead() throws {
        // 8 MiB in one value: the window stays near the limit instead of holding the string.
        let text = #"[{"genre": ""# + String(repeating: "y", count: 8 << 20) + #""}, {"title": "ok"}]"#
        let input = try CatalogInput(text, chunkSize: 64 * 1024)
        var reader = try JSONReader(over: input)
        let first = try #require(try reader.next())
        #expect(first.problem == #"the value of "genre" is over 1 MiB"#)
        #expect(input.count < JSONScanner.fieldLimit + 3 * 64 * 1024)
        #expect(try reader.next()?.values.first?.value == .text("ok"))
    }

    @Test func ndjsonHasTheSameLimitAndReadingGoesOn() throws {
        let catalog = try ndjson(#"{"title": "Low", "genre": "\#(Self.long)"}"# + "\n" + #"{"title": "Heroes"}"# + "\n")
        #expect(catalog.problems == [#"the value of "genre" is over 1 MiB"#, nil])
        #expect(catalog.lines == [1, 2])
    }

    @Test func anNDJSONLineOver16MebibytesStopsTheReadingAtItsLine() throws {
        // What `/dev/zero` gives: NUL bytes and never a line break.
        let zeros = Data(count: CSVReader.recordLimit + 100_000)
        let input = try CatalogInput(data: Data(#"{"title": "Low"}"#.utf8) + Data([0x0A]) + zeros, chunkSize: 64 * 1024)
        var reader = NDJSONReader(over: input)
        #expect(try reader.next()?.problem == nil)
        #expect(throws: CatalogError(line: 2, reason: "has a line over 16 MiB, where reading stopped (not NDJSON?)")) {
            _ = try reader.next()
        }
    }

    @Test func aSessionValueMayBeLongerThanACatalogField() throws {
        let value = try JSONValue(parsing: Data(#"{"notes": "\#(Self.long)"}"#.utf8))
        #expect(value == .object(["notes": .string(Self.long)]))
    }
}
