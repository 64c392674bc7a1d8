import Foundation
import Testing

struct MoveTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test func mvTowardTheEndPutsTheAlbumAtThatIndexAndShiftsTheOthersUp() throws {
        let albums = try store.add(titles: ["A", "B", "C", "D", "E"])

        let result = try store.run("mv", String(albums[0].id), "--to", "3")

        #expect(result.status == 0)
        #expect(try store.albums().map { "\($0.index):\($0.title)" } == ["0:B", "1:C", "2:D", "3:A", "4:E"])
    }

    @Test func mvTowardTheFrontPutsTheAlbumAtThatIndexAndShiftsTheOthersDown() throws {
        let albums = try store.add(titles: ["A", "B", "C", "D", "E"])

        let result = try store.run("mv", String(albums[4].id), "--to", "1")

        #expect(result.status == 0)
        #expect(try store.albums().map { "\($0.index):\($0.title)" } == ["0:A", "1:E", "2:B", "3:C", "4:D"])
    }

    @Test func mvToZeroMakesTheAlbumTheFirst() throws {
        let albums = try store.add(titles: ["A", "B", "C"])

        try store.run("mv", String(albums[2].id), "--to", "0")

        #expect(try store.titles() == ["C", "A", "B"])
    }

    @Test func mvToTheLastIndexMakesTheAlbumTheLast() throws {
        let albums = try store.add(titles: ["A", "B", "C"])

        try store.run("mv", String(albums[0].id), "--to", "2")

        #expect(try store.titles() == ["B", "C", "A"])
    }

    @Test func mvSaysWhereItMovedTheAlbumOnStderr() throws {
        let albums = try store.add(titles: ["A", "B"])

        let result = try store.run("mv", String(albums[1].id), "--to", "0")

        #expect(result.stdout == "")
        #expect(result.stderr == "Moved “B” by Artist to #0.\n")
    }

    @Test(.tags(.slow), .disabledInQuickSuite)
    func manyMovesToTheSameIndexKeepTheOrder() throws {
        // Moving the last album to index 1 again and again halves the gap there each time.
        let albums = try store.add(titles: (0..<40).map { "T\($0)" })
        var expected = albums.map(\.title)
        for album in albums.reversed().prefix(38) {
            try store.run("mv", String(album.id), "--to", "1")
            expected.removeAll { $0 == album.title }
            expected.insert(album.title, at: 1)
        }

        #expect(try store.titles() == expected)
    }

    @Test func mvToItsOwnIndexChangesNothingAndRecordsNoHistory() throws {
        let albums = try store.add(titles: ["A", "B", "C"])
        let before = try store.snapshot()

        let result = try store.run("mv", String(albums[1].id), "--to", "1")

        #expect(result.status == 0)
        #expect(try store.snapshot() == before)
    }

    @Test func mvToAnIndexOutOfRangeIsRefusedNamingTheValidRange() throws {
        let albums = try store.add(titles: ["A", "B", "C"])
        let before = try store.snapshot()

        let result = try store.run("mv", String(albums[0].id), "--to", "3")

        expectRefused(result, saying: "index 3 is out of range: valid indexes are 0...2, or -3...-1 counting from the end")
        #expect(try store.snapshot() == before)
    }

    @Test func mvOfAnUnknownIDIsRefused() throws {
        try store.add(titles: ["A", "B"])
        let before = try store.snapshot()

        let result = try store.run("mv", "42", "--to", "0")

        expectRefused(result, saying: "no album with id 42")
        #expect(try store.snapshot() == before)
    }

    @Test func mvWithoutToIsAUsageError() throws {
        let albums = try store.add(titles: ["A", "B"])
        let before = try store.snapshot()

        let result = try store.run("mv", String(albums[0].id))

        expectUsageError(result, saying: "Missing expected argument '--to <to>'")
        #expect(try store.snapshot() == before)
    }
}
