import Foundation
import Testing
@testable import AlbumStore

/// How an import maps source columns to album fields and reads their values.
struct ImportMappingTests {
    let library: Library

    init() throws { library = try Library.inMemory() }

    @Test func aliasesNameTheFieldsIgnoringCaseAndSpacing() throws {
        let summary = try library.importText("""
            Album,BAND,Released,Genres,Cover,Release ID
            Low,David Bowie,1977-01-14,Rock,https://covers.example.com/low.jpg,0042

            """)
        #expect(summary.inserted == 1)
        let album = try #require(try library.allAlbums().first)
        #expect(album.draft == AlbumDraft(title: "Low", artist: "David Bowie", genre: "Rock", year: 1977,
                                          coverURL: "https://covers.example.com/low.jpg", externalID: "0042"))
    }

    @Test func nameAndDateAreTitleAndYear() throws {
        try library.importText("name,artist,date\nHeroes,David Bowie,1977-10-14\n")
        #expect(try library.allAlbums().map(\.draft) == [AlbumDraft(title: "Heroes", artist: "David Bowie", year: 1977)])
    }

    @Test func albumArtistBeatsArtistWhicheverComesFirst() throws {
        try library.importText("""
            Album Artist,Artist,Album
            Various Artists,Nico,Chelsea Girl
            ,Nico,The Marble Index

            """)
        try library.importText("Artist,Album Artist,Album\nLou Reed,The Velvet Underground,Loaded\n")
        #expect(try library.allAlbums().map(\.artist) == ["Various Artists", "Nico", "The Velvet Underground"])
    }

    @Test func mapNamesColumnsCaseInsensitivelyAndBeatsAliases() throws {
        let options = ImportOptions(mapping: ["disc title": .title, "Performer": .artist, "Album": .genre])
        let summary = try library.importText(
            "Disc Title,PERFORMER,Album,Shelf\nLow,David Bowie,Rock,3\n", options: options)
        #expect(try library.allAlbums().map(\.draft) == [AlbumDraft(title: "Low", artist: "David Bowie", genre: "Rock")])
        #expect(summary.ignoredColumns == ["Shelf"])
    }

    @Test func indexAndIDAreIgnoredAndUnknownColumnsListedOnce() throws {
        let summary = try library.importText("""
            index,id,title,artist,Label,Notes,label
            7,900,Low,David Bowie,RCA,,x
            8,901,Heroes,David Bowie,RCA,fine,

            """)
        #expect(summary.ignoredColumns == ["Label", "Notes", "label"])
        #expect(try library.allAlbums().map(\.id) == [1, 2])
    }

    @Test func emptyCellsAreAbsentValues() throws {
        try library.importText("title,artist,genre,year,cover_url\nLow,David Bowie,,,\n")
        let album = try #require(try library.allAlbums().first)
        #expect(album.genre == nil && album.year == nil && album.coverURL == nil)
    }

    @Test(arguments: [("1987", 1987), ("1987-05-12", 1987), ("1987.0", 1987), ("1987/05", 1987), ("0", nil), (" 1999 ", 1999)])
    func yearsAreReadFromNumbersAndDates(text: String, year: Int?) throws {
        try library.importText("title,artist,year\nX,Y,\(text)\n")
        #expect(try library.allAlbums().first?.year == year)
    }

    @Test func createdAndUpdatedDatesAreKeptWhenGiven() throws {
        try library.importText("""
            title,artist,created_at,updated_at
            Low,David Bowie,2001-02-03T04:05:06.789Z,2002-02-03T04:05:06.000Z
            Heroes,David Bowie,,

            """)
        let albums = try library.allAlbums()
        #expect(ISO8601Timestamp.string(from: albums[0].createdAt) == "2001-02-03T04:05:06.789Z")
        #expect(ISO8601Timestamp.string(from: albums[0].updatedAt) == "2002-02-03T04:05:06.000Z")
        #expect(abs(albums[1].createdAt.timeIntervalSinceNow) < 60)
    }

    @Test func externalIDsStayTextWithLeadingZeros() throws {
        try library.importText("title,artist,external_id\nLow,David Bowie,000123\n")
        #expect(try library.allAlbums().first?.externalID == "000123")
    }
}
