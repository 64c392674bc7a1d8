import Foundation
import Testing

struct RemoveTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test func rmByIDDeletesThatAlbumAndKeepsTheOthersInOrder() throws {
        let albums = try store.add(titles: ["A", "B", "C"])

        let result = try store.run("rm", String(albums[1].id))

        #expect(result.status == 0)
        #expect(try store.albums().map { "\($0.index):\($0.title)" } == ["0:A", "1:C"])
    }

    @Test func rmSaysWhatItDeletedOnStderrAndPrintsNothingOnStdout() throws {
        let album = try store.add("Low", by: "David Bowie")

        let result = try store.run("rm", String(album.id))

        #expect(result.stdout == "")
        #expect(result.stderr == "Deleted “Low” by David Bowie. `albumstore undo` brings it back.\n")
    }

    @Test func rmAtAnIndexDeletesTheAlbumAtThatIndex() throws {
        try store.add(titles: ["A", "B", "C", "D"])

        let result = try store.run("rm", "--at", "2")

        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("Deleted “C” by Artist."))
        #expect(try store.titles() == ["A", "B", "D"])
    }

    @Test func rmAtTheLastIndexDeletesTheLastAlbum() throws {
        try store.add(titles: ["A", "B", "C"])

        let result = try store.run("rm", "--at", "2")

        #expect(result.status == 0)
        #expect(try store.titles() == ["A", "B"])
    }

    @Test func rmWithBothAnIDAndAnIndexIsAUsageErrorAndChangesNothing() throws {
        let albums = try store.add(titles: ["A", "B"])
        let before = try store.snapshot()

        let result = try store.run("rm", String(albums[0].id), "--at", "1")

        expectUsageError(result, saying: "Give an id or --at INDEX (exactly one).")
        #expect(try store.snapshot() == before)
    }

    @Test func rmWithNeitherAnIDNorAnIndexIsAUsageError() throws {
        try store.add(titles: ["A"])
        let before = try store.snapshot()

        let result = try store.run("rm")

        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(try store.snapshot() == before)
    }

    @Test func rmOfAnUnknownIDIsRefusedAndChangesNothing() throws {
        try store.add(titles: ["A", "B"])
        let before = try store.snapshot()

        let result = try store.run("rm", "99")

        expectRefused(result, saying: "no album with id 99")
        #expect(try store.snapshot() == before)
    }

    @Test func rmAtAnIndexOutOfRangeIsRefusedNamingTheValidRange() throws {
        try store.add(titles: ["A", "B"])
        let before = try store.snapshot()

        let result = try store.run("rm", "--at", "2")

        expectRefused(result, saying: "index 2 is out of range: valid indexes are 0...1, or -2...-1 counting from the end")
        #expect(try store.snapshot() == before)
    }

    @Test func rmAtAnIndexInAnEmptyLibrarySaysItIsEmpty() throws {
        try store.run("init")
        let result = try store.run("rm", "--at", "0")

        expectRefused(result, saying: "index 0 is out of range: the library is empty")
        #expect(try store.history().isEmpty)
    }

    @Test func rmWithAnIDThatIsNotANumberIsAUsageError() throws {
        try store.add(titles: ["A"])
        let before = try store.snapshot()

        let result = try store.run("rm", "A")

        expectUsageError(result, saying: "The value 'A' is invalid for '<id>'")
        #expect(try store.snapshot() == before)
    }
}
