import Foundation
import Testing
@testable import AlbumStore

/// Discogs' collection export read into our field names, with Discogs' own marks taken off.
struct DiscogsReaderTests {
    static let header = "Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,CollectionFolder,Date Added,"
        + "Collection Media Condition,Collection Sleeve Condition,Collection Notes"

    private func read(_ text: String) throws -> ReadCatalog {
        try ReadCatalog.all(DiscogsReader(over: CatalogInput(text)))
    }

    @Test func theExportsRowsOfTwelveAndThirteenFieldsBecomeOurFields() throws {
        let catalog = try read(#"""
            \#(Self.header)
            OTO 2,Au Pairs,You,021 Records,"7"", EP",,1979,7530535,Uncategorized,2020-11-12 12:24:52,,
            TENR 137,Mantronix,Who Is It?,10 Records,"12""",,1987,129186,Uncategorized,2020-03-09 22:40:50,Very Good Plus (VG+),Very Good Plus (VG+),

            """#)

        #expect(catalog.problems == [nil, nil])
        #expect(catalog.rows == [
            [
                "title": "You", "artist": "Au Pairs", "year": "#1979", "external_id": "discogs:7530535",
                "created_at": "2020-11-12 12:24:52", "Catalog#": "OTO 2", "Label": "021 Records", "Format": "7\", EP",
                "CollectionFolder": "Uncategorized",
            ],
            [
                "title": "Who Is It?", "artist": "Mantronix", "year": "#1987", "external_id": "discogs:129186",
                "created_at": "2020-03-09 22:40:50", "Catalog#": "TENR 137", "Label": "10 Records", "Format": "12\"",
                "CollectionFolder": "Uncategorized", "Collection Media Condition": "Very Good Plus (VG+)",
                "Collection Sleeve Condition": "Very Good Plus (VG+)",
            ],
        ])
        #expect(catalog.lines == [2, 3])
        #expect(Array(catalog.columns.prefix(5)) == ["title", "artist", "year", "external_id", "created_at"])
    }

    @Test(arguments: [
        ("Nirvana (2)", "Nirvana"),
        ("Was (Not Was)", "Was (Not Was)"),
        ("Prince*", "Prince"),
        ("Prince (3)*", "Prince"),
        ("Various", "Various Artists"),
        ("Various*", "Various Artists"),
        ("(2)", "(2)"),
        ("Band (2) Live", "Band (2) Live"),
        ("Boney M.", "Boney M."),
    ])
    func artistsLoseDiscogsMarksOnlyAtTheEnd(written: String, name: String) {
        #expect(DiscogsReader.artist(written) == name)
    }

    @Test(arguments: [
        ("1979", SourceValue?.some(.number("1979"))),
        ("1987-05-00", .number("1987")),
        ("1987-05-12", .number("1987")),
        ("0", nil),
        ("", nil),
        ("unknown", .text("unknown")),
    ])
    func releasedGivesTheYear(released: String, year: SourceValue?) {
        #expect(DiscogsReader.year(released: released) == year)
    }

    @Test func customCollectionColumnsArePassedOnAndRowsMayHaveAllOfThem() throws {
        let catalog = try read("""
            \(Self.header),Collection Box
            A1,Nirvana (2),Bleach,Sub Pop,LP,5,1989-06-15,123,Uncategorized,2021-01-01 10:00:00,Mint (M),Mint (M),signed,Box 3
            A2,Various,Hits,Label,CD,,0,456,Uncategorized,2021-01-02 10:00:00,,
            A3,X,Y,L,F,,,789,U,D
            """)
        #expect(catalog.problems == [nil, nil, "has 10 fields, the header has 14"])
        #expect(catalog.rows[0]["artist"] == "Nirvana")
        #expect(catalog.rows[0]["year"] == "#1989")
        #expect(catalog.rows[0]["Collection Notes"] == "signed")
        #expect(catalog.rows[0]["Collection Box"] == "Box 3")
        #expect(catalog.rows[1]["artist"] == "Various Artists")
        #expect(catalog.rows[1]["year"] == nil)
    }

    @Test func aCSVWithoutTheExportsColumnsIsNotADiscogsExport() throws {
        #expect(throws: CatalogError(line: 1, reason: "is not a Discogs collection export: its header has no Title column")) {
            try read("title,artist\nLow,Bowie\n")
        }
    }

    @Test func detectionAndTheFormatsReaderTakeTheExport() throws {
        let text = "\(Self.header)\nOTO 2,Au Pairs,You,021 Records,\"7\"\", EP\",,1979,7530535,Uncategorized,2020-11-12 12:24:52,,\n"
        let input = try CatalogInput(text)
        let format = CatalogFormat.detect(fileName: "export.csv", head: input.head)
        #expect(format == .discogs)
        let catalog = try ReadCatalog.all(format.reader(over: input))
        #expect(catalog.rows.first?["external_id"] == "discogs:7530535")
    }
}
