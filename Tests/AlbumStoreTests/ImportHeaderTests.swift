import Foundation
import Testing
@testable import AlbumStore

/// What an import does with the first line of a CSV or TSV file: a header that gives no title or
/// artist is refused before any row is read, a semicolon header is read as such, another
/// delimiter or no header at all is the caller's to say; and an import asked to stop rolls back.
struct ImportHeaderTests {
    let library: Library

    init() throws { library = try Library.inMemory() }

    @Test func aHeaderWithoutTitleOrArtistIsRefusedBeforeAnyRowIsRead() throws {
        // The second row has a NUL byte: a row read would be rejected for it first.
        #expect(throws: ImportError.missingFields(
            file: "albums.csv", fields: [.title], columns: ["Album Name", "artist", "Year", "id"],
            unmapped: ["Album Name"])
        ) {
            try library.importText("Album Name,artist,Year,id\nLow,David Bowie,1977,1\nx\u{0},y,,\n")
        }
        #expect(try library.allAlbums().isEmpty)
        #expect(throws: ImportError.missingFields(file: "albums.tsv", fields: [.title, .artist], columns: ["a", "b"], unmapped: ["a", "b"])) {
            try library.importText("a\tb\n1\t2\n", name: "albums.tsv")
        }
    }

    @Test func aHeaderOfSemicolonsWithoutCommasIsSemicolonSeparated() throws {
        let summary = try library.importText("title;artist;year\nLow;David Bowie;1977\n\"A; B\";C;\n")
        #expect(summary.delimiter == ";")
        #expect(try library.allAlbums().map(\.draft) == [
            AlbumDraft(title: "Low", artist: "David Bowie", year: 1977), AlbumDraft(title: "A; B", artist: "C"),
        ])
        // A comma in the first line: commas.
        #expect(throws: ImportError.self) { try library.importText("title;artist,year\nX;Y,1\n") }
    }

    @Test func aDelimiterGivenReadsTheFileAsCSVWithIt() throws {
        let summary = try library.importAlbums(
            from: .data(Data("title|artist\nLow|David Bowie\n".utf8), name: "albums.txt"), options: .with { $0.delimiter = "|" })
        #expect((summary.format, summary.delimiter, summary.inserted) == (.csv, "|", 1))
        let refusal = #expect(throws: ImportError.self) {
            try library.importText("title,artist\n", options: .with { $0.delimiter = "\"" })
        }
        #expect(refusal?.description.hasSuffix("a delimiter is one ASCII character other than a quote or a line break") == true)
    }

    @Test func withoutAHeaderTheFirstLineIsARowAndColumnsAreNumbered() throws {
        let options = ImportOptions.with {
            $0.hasHeader = false
            $0.mapping = ["1": .title, "2": .artist, "3": .year]
            $0.invalidRows = .skip
        }
        let summary = try library.importText("Kind of Blue,Miles Davis,1959\nLow,David Bowie,1977,extra\n", options: options)
        #expect((summary.inserted, summary.rejected) == (1, 1))
        #expect(summary.rejections.first?.reason == "has 4 fields, the first row has 3")
        #expect(try library.allAlbums().map(\.draft) == [AlbumDraft(title: "Kind of Blue", artist: "Miles Davis", year: 1959)])
    }

    @Test func anImportAskedToStopRollsBackAndThrowsCancellation() throws {
        try library.importText("title,artist\nHomogenic,Björk\n")
        let rows = (0..<10_000).map { "Title \($0),Artist\n" }.joined()
        #expect(throws: CancellationError.self) {
            try library.importText("title,artist\n" + rows, options: .with { $0.isCancelled = { true } })
        }
        #expect(try library.allAlbums().map(\.title) == ["Homogenic"])
        #expect(try library.historyEntries().count == 1)
    }
}
