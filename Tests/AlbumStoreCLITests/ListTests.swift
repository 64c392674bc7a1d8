import Foundation
import Testing

struct ListTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test func listOfAnEmptyLibraryPrintsOnlyTheTableHeader() throws {
        try store.run("init")
        let result = try store.run("list")

        #expect(result.status == 0)
        #expect(result.stdout == "#  Artist  Album  Genre  Year  ID\n")
        #expect(result.stderr == "")
    }

    @Test func listPrintsATableWithColumnsPaddedToTheWidestCell() throws {
        try store.add("Low", by: "David Bowie", "--genre", "Rock", "--year", "1977")
        try store.add("Blue Lines", by: "Massive Attack", "--genre", "Trip hop")
        try store.add("Kid A", by: "Radiohead", "--year", "2000")

        let result = try store.run("list")

        #expect(result.stdout == """
            #  Artist          Album       Genre     Year  ID
            0  David Bowie     Low         Rock      1977  1
            1  Massive Attack  Blue Lines  Trip hop        2
            2  Radiohead       Kid A                 2000  3

            """)
    }

    @Test func listShowsTheAlbumsInListOrderWithTheirIndexes() throws {
        let albums = try store.add(titles: ["A", "B", "C"])
        try store.run("mv", String(albums[2].id), "--to", "0")

        let listed = try store.albums()

        #expect(listed.map(\.index) == [0, 1, 2])
        #expect(listed.map(\.id) == [albums[2].id, albums[0].id, albums[1].id])
    }

    @Test func listOffsetAndLimitPrintOnePageWithTheAlbumsIndexes() throws {
        try store.add(titles: ["A", "B", "C", "D", "E"])

        let result = try store.run("list", "--offset", "1", "--limit", "3", "--format", "json")

        let page = try decodeJSON([PrintedAlbum].self, from: result.stdout)
        #expect(page.map { "\($0.index):\($0.title)" } == ["1:B", "2:C", "3:D"])
    }

    @Test func listLimitWithoutOffsetStartsAtTheFront() throws {
        try store.add(titles: ["A", "B", "C"])

        let result = try store.run("list", "--limit", "2", "--format", "json")

        #expect(try decodeJSON([PrintedAlbum].self, from: result.stdout).map(\.title) == ["A", "B"])
    }

    @Test func listOffsetPastTheEndPrintsAnEmptyArray() throws {
        try store.add(titles: ["A", "B"])

        let result = try store.run("list", "--offset", "5", "--format", "json")

        #expect(result.status == 0)
        #expect(try decodeJSON([PrintedAlbum].self, from: result.stdout).isEmpty)
    }

    @Test(arguments: [["--limit=-1"], ["--limit", "-1"]])
    func listWithANegativeLimitIsAUsageError(option: [String]) throws {
        let result = try store.run(["list"] + option)

        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: --"))
        #expect(result.stderr.contains("must not be negative."))
    }
}
