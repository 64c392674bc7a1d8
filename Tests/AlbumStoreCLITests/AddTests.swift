import Foundation
import Testing

struct AddTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test func addStoresEveryFieldAndPrintsTheNewAlbum() throws {
        let before = Date()
        let result = try store.run(
            "add", "--title", "Low", "--artist", "David Bowie", "--genre", "Rock", "--year", "1977",
            "--cover-url", "https://example.com/low.jpg", "--external-id", "discogs:123", "--format", "json")

        #expect(result.status == 0)
        #expect(result.stderr == "")
        let printed = try #require(try decodeJSON([PrintedAlbum].self, from: result.stdout).first)
        #expect(printed.index == 0)
        #expect(printed.title == "Low")
        #expect(printed.artist == "David Bowie")
        #expect(printed.genre == "Rock")
        #expect(printed.year == 1977)
        #expect(printed.coverURL == "https://example.com/low.jpg")
        #expect(printed.externalID == "discogs:123")
        #expect(printed.createdAt.timeIntervalSince(before) > -1)
        #expect(printed.createdAt.timeIntervalSinceNow < 1)
        #expect(printed.updatedAt == printed.createdAt)
        #expect(try store.albums() == [printed])
    }

    @Test func addPrintsATableRowByDefault() throws {
        let result = try store.run("add", "--title", "Low", "--artist", "David Bowie", "--genre", "Rock", "--year", "1977")

        #expect(result.status == 0)
        #expect(result.stdout == """
            #  Artist       Album  Genre  Year  ID
            0  David Bowie  Low    Rock   1977  1

            """)
    }

    @Test func addWithoutAtAppendsAtTheEnd() throws {
        try store.add(titles: ["A", "B"])

        let added = try store.add("C")

        #expect(added.index == 2)
        #expect(try store.titles() == ["A", "B", "C"])
    }

    @Test func addTrimsTextAndStoresBlankOptionalFieldsAsNull() throws {
        let added = try store.add("  Low  ", by: " David Bowie ", "--genre", "  ", "--cover-url", "", "--external-id", " ")

        #expect(added.title == "Low")
        #expect(added.artist == "David Bowie")
        #expect(added.genre == nil)
        #expect(added.coverURL == nil)
        #expect(added.externalID == nil)
    }

    @Test func addAcceptsAFileCoverURL() throws {
        let added = try store.add("Low", "--cover-url", "file:///music/low.jpg")
        #expect(added.coverURL == "file:///music/low.jpg")
    }

    @Test func addAtZeroInsertsAtTheFront() throws {
        try store.add(titles: ["A", "B", "C"])

        let added = try store.add("New", "--at", "0")

        #expect(added.index == 0)
        #expect(try store.titles() == ["New", "A", "B", "C"])
    }

    @Test func addAtAMiddleIndexInsertsThereAndShiftsTheRestDown() throws {
        try store.add(titles: ["A", "B", "C", "D"])

        let added = try store.add("New", "--at", "2")

        #expect(added.index == 2)
        #expect(try store.albums().map { "\($0.index):\($0.title)" } == ["0:A", "1:B", "2:New", "3:C", "4:D"])
    }

    @Test func addAtTheCountInsertsAtTheEnd() throws {
        try store.add(titles: ["A", "B", "C"])

        let added = try store.add("New", "--at", "3")

        #expect(added.index == 3)
        #expect(try store.titles() == ["A", "B", "C", "New"])
    }

    @Test func addAtZeroIntoAnEmptyLibraryAddsTheFirstAlbum() throws {
        let added = try store.add("Only", "--at", "0")

        #expect(added.index == 0)
        #expect(try store.titles() == ["Only"])
    }

    @Test(.tags(.slow), .disabledInQuickSuite)
    func manyInsertsAtTheSameIndexKeepTheOrder() throws {
        // Enough inserts between the same two neighbours to use up the gap between their keys.
        try store.add(titles: ["First", "Last"])
        for number in 1...40 { try store.add("N\(number)", "--at", "1") }

        #expect(try store.titles() == ["First"] + (1...40).reversed().map { "N\($0)" } + ["Last"])
    }

    @Test func addAtAnIndexPastTheEndFailsNamingTheValidRange() throws {
        try store.add(titles: ["A", "B"])
        let before = try store.snapshot()

        let result = try store.run("add", "--title", "New", "--artist", "X", "--at", "3")

        expectRefused(result, saying: "index 3 is out of range: valid indexes are 0...2, or -3...-1 counting from the end")
        #expect(try store.snapshot() == before)
    }

    @Test func addAtANegativeIndexBeforeTheStartFailsNamingTheValidRanges() throws {
        try store.add(titles: ["A", "B"])
        let before = try store.snapshot()

        let result = try store.run("add", "--title", "New", "--artist", "X", "--at=-4")

        expectRefused(result, saying: "index -4 is out of range: valid indexes are 0...2, or -3...-1 counting from the end")
        #expect(try store.snapshot() == before)
    }

    @Test func addAtOneIntoAnEmptyLibraryFailsNamingIndexZeroAsTheOnlyValidOne() throws {
        let result = try store.run("add", "--title", "New", "--artist", "X", "--at", "1")

        expectRefused(result, saying: "index 1 is out of range: valid indexes are 0...0, or -1...-1 counting from the end")
        #expect(try store.albums().isEmpty)
    }

    @Test(arguments: [
        (["--year", "999"], "year: 999 is not between 1000 and \(nextYear)"),
        (["--year", String(nextYear + 1)], "year: \(nextYear + 1) is not between 1000 and \(nextYear)"),
        (["--cover-url", "ftp://example.com/low.jpg"], "cover URL: ftp://example.com/low.jpg is not an http(s) or file URL"),
        (["--cover-url", "low.jpg"], "cover URL: low.jpg is not an http(s) or file URL"),
        (["--cover-url", "https://"], "cover URL: https:// is not an http(s) or file URL"),
    ])
    func addWithAnInvalidFieldIsRefusedWithOneLineAndChangesNothing(field: [String], message: String) throws {
        try store.add("Existing")
        let before = try store.snapshot()

        let result = try store.run(["add", "--title", "New", "--artist", "X"] + field)

        expectRefused(result, saying: message)
        #expect(try store.snapshot() == before)
    }

    @Test func addWithABlankTitleIsRefused() throws {
        try store.add("Existing")
        let before = try store.snapshot()

        let result = try store.run("add", "--title", "   ", "--artist", "X")

        expectRefused(result, saying: "title: must not be empty")
        #expect(try store.snapshot() == before)
    }

    @Test func addWithABlankArtistIsRefused() throws {
        let result = try store.run("add", "--title", "Low", "--artist", "")

        expectRefused(result, saying: "artist: must not be empty")
        #expect(try store.albums().isEmpty)
    }

    @Test func aBadValueHoldingALineBreakIsStillReportedOnOneLine() throws {
        try store.add("Existing")
        let before = try store.snapshot()

        let result = try store.run("add", "--title", "New", "--artist", "X", "--year", "19\n77")

        expectUsageError(result, saying: "The value '19\\n77' is invalid for '--year <year>'")
        #expect(try store.snapshot() == before)
    }

    @Test func addWithAnExternalIDAnotherAlbumHasIsRefused() throws {
        let existing = try store.add("Existing", "--external-id", "discogs:1")
        let before = try store.snapshot()

        let result = try store.run("add", "--title", "New", "--artist", "X", "--external-id", "discogs:1")

        expectRefused(result, saying: "external id: discogs:1 already belongs to album \(existing.id)")
        #expect(try store.snapshot() == before)
    }

    @Test func addHelpShowsTitleAndArtistAsRequiredAndSpeaksOfNoClearing() throws {
        let help = try store.run("add", "--help").stdout

        let usage = try #require(help.split(separator: "\n").first { $0.hasPrefix("USAGE:") })
        #expect(usage.contains(" --title <title> --artist <artist> "))
        #expect(usage.contains("[--genre <genre>]"))
        #expect(!help.contains("clear"))
        #expect(help.contains("Surrounding spaces are trimmed"))
    }

    @Test func editHelpSaysAnEmptyValueClearsAField() throws {
        let help = try store.run("edit", "--help").stdout

        #expect(help.contains("[--title <title>] [--artist <artist>]"))
        #expect(help.contains("an empty value clears"))
    }

    @Test func addWithoutAnArtistIsAUsageError() throws {
        let result = try store.run("add", "--title", "Low")

        expectUsageError(result, saying: "Missing expected argument '--artist <artist>'")
        #expect(!FileManager.default.fileExists(atPath: store.db))
    }
}
