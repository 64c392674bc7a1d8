import Foundation
import Testing
@testable import AlbumStore

/// CSV and TSV as RFC 4180 and the field's habits have them: quoting, line ends, blank lines,
/// field counts, and the records that come back with a problem instead of a row.
struct CSVReaderTests {
    private func read(_ text: String, chunkSize: Int = 64 * 1024, separator: Character = ",", minimum: Int? = nil) throws -> ReadCatalog {
        let input = try CatalogInput(text, chunkSize: chunkSize)
        return try ReadCatalog.all(CSVReader(over: input, separator: separator.asciiValue ?? 0, minimumFieldCount: minimum))
    }

    @Test(arguments: [1, 2, 3, 7, 64 * 1024])
    func quotedFieldsHoldCommasDoubledQuotesAndLineBreaksWhateverTheChunkSize(chunkSize: Int) throws {
        let catalog = try read("""
            title,artist,year
            "Low, the album","David ""The Thin White Duke"" Bowie",1977
            "Line one
            line two",Someone,"2001"

            """, chunkSize: chunkSize)

        #expect(catalog.columns == ["title", "artist", "year"])
        #expect(catalog.rows == [
            ["title": "Low, the album", "artist": #"David "The Thin White Duke" Bowie"#, "year": "1977"],
            ["title": "Line one\nline two", "artist": "Someone", "year": "2001"],
        ])
        #expect(catalog.lines == [2, 3])
        #expect(catalog.problems == [nil, nil])
    }

    @Test(arguments: ["\r\n", "\n", "\r"])
    func recordsEndWithCRLFOrLFOrALoneCR(lineEnd: String) throws {
        let text = ["title,artist", "A,B", "\"C\(lineEnd)D\",E", "F,G"].joined(separator: lineEnd) + lineEnd
        for chunkSize in [1, 4, 1024] {
            let catalog = try read(text, chunkSize: chunkSize)
            #expect(catalog.rows == [["title": "A", "artist": "B"], ["title": "C\(lineEnd)D", "artist": "E"], ["title": "F", "artist": "G"]])
            #expect(catalog.lines == [2, 3, 5])
        }
    }

    @Test func aMissingFinalLineBreakEndsTheLastRecord() throws {
        let catalog = try read("title,artist\nLow,Bowie")
        #expect(catalog.rows == [["title": "Low", "artist": "Bowie"]])
    }

    @Test func blankLinesAreSkippedAndTheHeaderIsTheFirstNonBlankRecord() throws {
        let catalog = try read("\n\r\n  title , artist\n\nLow,Bowie\n\n\nHeroes,Bowie\n\n")
        #expect(catalog.columns == ["title", "artist"])
        #expect(catalog.rows == [["title": "Low", "artist": "Bowie"], ["title": "Heroes", "artist": "Bowie"]])
        #expect(catalog.lines == [5, 8])
    }

    @Test func aUTF8BOMIsNotPartOfTheFirstHeader() throws {
        let input = try CatalogInput(data: Data([0xEF, 0xBB, 0xBF] + Array("title,artist\nLow,Bowie\n".utf8)))
        let catalog = try ReadCatalog.all(CSVReader(over: input))
        #expect(catalog.columns == ["title", "artist"])
        #expect(input.encoding == .utf8 && !input.encodingWasGuessed)
    }

    @Test func emptyCellsAreAbsentAndAQuotedEmptyCellIsAnEmptyText() throws {
        let catalog = try read("title,artist,genre,year\nLow,,\"\",\n")
        #expect(catalog.rows == [["title": "Low", "genre": ""]])
        #expect(catalog.records[0].values.map(\.column) == [0, 2])
    }

    @Test func valuesAreTextAsWrittenWithLeadingZerosAndSpaces() throws {
        let catalog = try read("external_id,title\n007, Low \n")
        #expect(catalog.rows == [["external_id": "007", "title": " Low "]])
    }

    @Test func aRowWithTheWrongNumberOfFieldsHasAProblemNamingBothCounts() throws {
        let catalog = try read("a,b,c,d\n1,2,3,4,5\n1,2,3\n1,2,3,4\n1\n")
        #expect(catalog.problems == [
            "has 5 fields, the header has 4", "has 3 fields, the header has 4", nil, "has 1 field, the header has 4",
        ])
        #expect(catalog.lines == [2, 3, 4, 5])
        #expect(catalog.rows[0] == ["a": "1", "b": "2", "c": "3", "d": "4"], "no value past the header's columns")
    }

    @Test func aMinimumFieldCountAcceptsRowsMissingTrailingFields() throws {
        let catalog = try read("a,b,c\n1,2\n1\n1,2,3\n", minimum: 2)
        #expect(catalog.problems == [nil, "has 1 field, the header has 3", nil])
    }

    @Test func aNULByteMakesItsRecordsProblemAndReadingGoesOn() throws {
        let catalog = try read("title,artist\nLo\u{0}w,Bowie\n\"x\u{0}\",y\nHeroes,Bowie\n")
        #expect(catalog.problems == ["contains a NUL byte", "contains a NUL byte", nil])
        #expect(catalog.rows[2] == ["title": "Heroes", "artist": "Bowie"])
    }

    @Test(arguments: [false, true])
    func aFieldOverOneMebibyteIsAProblemAndIsNotKept(quoted: Bool) throws {
        let long = String(repeating: "x", count: CSVReader.fieldLimit + 10)
        let field = quoted ? "\"\(long)\"" : long
        let catalog = try read("title,artist\nLow,\(field)\nHeroes,Bowie\n", chunkSize: 4096)
        #expect(catalog.problems == ["field 2 is over 1 MiB", nil])
        #expect(catalog.rows[0] == ["title": "Low"])
        #expect(catalog.rows[1] == ["title": "Heroes", "artist": "Bowie"])
        #expect(catalog.lines == [2, 3])
    }

    @Test func aFieldOverOneMebibyteIsDroppedWhileItIsRead() throws {
        // 8 MiB in one field: the window stays near the limit instead of holding the field.
        let long = String(repeating: "y", count: 8 << 20)
        let input = try CatalogInput("title\n\(long)\nok\n", chunkSize: 64 * 1024)
        var reader = try CSVReader(over: input)
        let first = try #require(try reader.next())
        #expect(first.problem == "field 1 is over 1 MiB")
        #expect(input.count < CSVReader.fieldLimit + 3 * 64 * 1024)
        #expect(try reader.next()?.values.first?.value == .text("ok"))
    }

    @Test(arguments: [false, true])
    func aRecordOver16MebibytesStopsTheReadingAtItsLine(tabs: Bool) throws {
        // What `/dev/zero` gives: NUL bytes and never a line end; read on, it never ends.
        let zeros = Data(count: CSVReader.recordLimit + 100_000)
        let input = try CatalogInput(data: Data("title\nLow\n".utf8) + zeros, chunkSize: 64 * 1024)
        var reader = try CSVReader(over: input, separator: tabs ? 0x09 : UInt8(ascii: ","))
        #expect(try reader.next()?.problem == nil)
        #expect(throws: CatalogError(
            line: 3, reason: "has a record over 16 MiB, where reading stopped (not a catalog?); first problem: contains a NUL byte"
        )) {
            _ = try reader.next()
        }
    }

    @Test func aHeaderOver16MebibytesCannotBeRead() throws {
        let zeros = Data(count: CSVReader.recordLimit + 100_000)
        #expect(throws: CatalogError.self) { _ = try CSVReader(over: CatalogInput(data: zeros, encoding: .utf8)) }
    }

    @Test func anUnterminatedQuoteAtTheEndIsAProblemNamingTheLineItOpenedOn() throws {
        let catalog = try read("title,artist\nLow,Bowie\nHeroes,\"Bowie\nand more\nlines")
        #expect(catalog.problems == [nil, "has a quote opened on line 3 that is never closed"])
        #expect(catalog.lines == [2, 3])
    }

    @Test func bytesAfterAClosingQuoteAreKeptAsWritten() throws {
        let catalog = try read("title,artist\n\"Low\" (remaster),\"a\"\"b\"c\n")
        #expect(catalog.rows == [["title": "Low (remaster)", "artist": "a\"bc"]])
    }

    @Test func invalidUTF8InAStreamAssumedUTF8IsARecordProblem() throws {
        // Past the sniffed start, as in standard input longer than 1 MiB.
        var bytes = Array("title,artist\nLow,Bowie\n".utf8)
        bytes += Array("Caf".utf8) + [0xE9] + Array(",Someone\nHeroes,Bowie\n".utf8)
        let input = try CatalogInput(data: Data(bytes), sniffLimit: 16)
        #expect(input.encoding == .utf8)
        let catalog = try ReadCatalog.all(CSVReader(over: input))
        #expect(catalog.problems == [nil, "field 1 is not valid UTF-8", nil])
    }

    @Test func aHeaderWithANULByteCannotBeRead() throws {
        let input = try CatalogInput("ti\u{0}tle,artist\n")
        #expect(throws: CatalogError(line: 1, reason: "the header contains a NUL byte")) { try CSVReader(over: input) }
    }

    @Test func anEmptyFileHasNoColumnsAndNoRecords() throws {
        let catalog = try read("")
        #expect(catalog.columns.isEmpty && catalog.records.isEmpty)
    }

    @Test func tsvSplitsOnTabsAcceptsQuotesAndUndoesTheWritersEscapes() throws {
        let catalog = try read("title\tartist\tgenre\n\"a\tb\"\tback\\\\slash\\ttab\tx,y\n", separator: "\t")
        #expect(catalog.rows == [["title": "a\tb", "artist": "back\\slash\ttab", "genre": "x,y"]])
    }

    @Test func albumsWrittenAsCSVAndTSVReadBackAsTheyWere() throws {
        let albums: [Album] = [
            .sample(id: 1, title: "Low, \"remastered\"", genre: ""),
            .sample(id: 2, title: "line\nbreak\ttab\\slash", artist: "Björk 🎶", genre: nil, year: nil),
        ]
        let writers: [(MemorySink) -> any AlbumWriter] = [{ CSVWriter(to: $0) }, { TSVWriter(to: $0) }]
        for (write, separator) in zip(writers, [UInt8(ascii: ","), UInt8(ascii: "\t")]) {
            let sink = MemorySink()
            let albumWriter = write(sink)
            for album in albums { try albumWriter.write(album, index: nil) }
            try albumWriter.finish()
            let catalog = try ReadCatalog.all(CSVReader(over: CatalogInput(data: Data(sink.bytes), chunkSize: 5), separator: separator))
            #expect(catalog.rows.map { $0["title"] } == albums.map(\.title))
            #expect(catalog.rows.map { $0["artist"] } == albums.map(\.artist))
            // TSV has no way to write an empty text apart from a missing one; CSV quotes it.
            #expect(catalog.rows.map { $0["genre"] } == (separator == UInt8(ascii: ",") ? ["", nil] : [nil, nil]))
            #expect(catalog.problems == [nil, nil])
        }
    }

    @Test func aQuoteInsideAnUnquotedFieldIsText() throws {
        let catalog = try read("title,artist\n12\" Single,A \"B\" C\n")
        #expect(catalog.rows == [["title": "12\" Single", "artist": "A \"B\" C"]])
    }

    @Test func aHeaderAloneGivesColumnsAndNoRecords() throws {
        let catalog = try read("title,artist,,year\r\n")
        #expect(catalog.columns == ["title", "artist", "", "year"])
        #expect(catalog.records.isEmpty)
    }

    @Test func theFormatsReadersReadCSVAndTSV() throws {
        let csv = try ReadCatalog.all(CatalogFormat.csv.reader(over: CatalogInput("a,b\n1,2\n")))
        let tsv = try ReadCatalog.all(CatalogFormat.tsv.reader(over: CatalogInput("a\tb\n1,2\t3\n")))
        #expect(csv.rows == [["a": "1", "b": "2"]])
        #expect(tsv.rows == [["a": "1,2", "b": "3"]])
    }
}
