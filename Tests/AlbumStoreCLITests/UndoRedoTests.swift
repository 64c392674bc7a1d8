import Foundation
import Testing

/// Every `albumstore` run is a process of its own, so each undo and redo here works on a command
/// an earlier process made.
struct UndoRedoTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test func undoOfAnAddRemovesTheAlbum() throws {
        try store.add("A")
        try store.add("B")

        let result = try store.run("undo")

        #expect(result.status == 0)
        #expect(try store.titles() == ["A"])
    }

    @Test func undoSaysWhatItUndidOnStderr() throws {
        try store.add("Low", by: "David Bowie")

        let result = try store.run("undo")

        #expect(result.stdout == "")
        #expect(result.stderr == "Undid: add “Low” by David Bowie. `albumstore redo` does it again.\n")
    }

    @Test func undoThenRedoRoundTripsTheLibraryExactly() throws {
        try store.add(titles: ["A", "B"])
        try store.add("C", "--genre", "Rock", "--year", "1999", "--external-id", "d:3")
        let done = try store.albums()

        let undo = try store.run("undo")
        let undone = try store.albums()
        let redo = try store.run("redo")

        #expect(undo.status == 0)
        #expect(undone == Array(done.prefix(2)))
        #expect(redo.status == 0)
        #expect(redo.stderr == "Redid: add “C” by Artist.\n")
        #expect(try store.albums() == done)
    }

    @Test func undoOfRmBringsTheAlbumBackWithItsIDFieldsAndPlace() throws {
        try store.add(titles: ["A", "B", "C"])
        let before = try store.albums()
        try store.run("rm", "--at", "1")

        let result = try store.run("undo")

        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("Undid: delete “B” by Artist."))
        #expect(try store.albums() == before)
    }

    @Test func undoOfEditRestoresTheOldValues() throws {
        let album = try store.add("Low", "--genre", "Rock", "--year", "1977")
        try store.run("edit", String(album.id), "--title", "Heroes", "--genre", "", "--year", "1978")

        try store.run("undo")

        #expect(try store.album(id: album.id) == album)
    }

    @Test func undoOfMvRestoresTheOrder() throws {
        let albums = try store.add(titles: ["A", "B", "C", "D"])
        try store.run("mv", String(albums[0].id), "--to", "3")

        try store.run("undo")

        #expect(try store.titles() == ["A", "B", "C", "D"])
    }

    @Test func undoOfAnInsertAtAnIndexRemovesItAndRedoPutsItBackThere() throws {
        try store.add(titles: ["A", "B", "C"])
        try store.add("New", "--at", "1")

        try store.run("undo")
        let undone = try store.titles()
        try store.run("redo")

        #expect(undone == ["A", "B", "C"])
        #expect(try store.titles() == ["A", "New", "B", "C"])
    }

    @Test func undoTwiceUndoesTheNewestCommandFirstAndRedoReplaysThemInOrder() throws {
        let album = try store.add("A")
        try store.run("edit", String(album.id), "--title", "A2")
        try store.run("edit", String(album.id), "--title", "A3")

        try store.run("undo")
        try store.run("undo")
        let afterUndos = try store.titles()
        try store.run("redo")
        let afterOneRedo = try store.titles()

        #expect(afterUndos == ["A"])
        #expect(afterOneRedo == ["A2"])
    }

    @Test func undoWithNothingToUndoIsRefused() throws {
        try store.run("init")
        let result = try store.run("undo")

        expectRefused(result, saying: "nothing to undo")
    }

    @Test func undoPastTheOldestCommandIsRefusedAndChangesNothing() throws {
        try store.add("A")
        try store.run("undo")
        let before = try store.snapshot()

        let result = try store.run("undo")

        expectRefused(result, saying: "nothing to undo")
        #expect(try store.snapshot() == before)
    }

    @Test func redoWithNothingUndoneIsRefused() throws {
        try store.add("A")
        let before = try store.snapshot()

        let result = try store.run("redo")

        expectRefused(result, saying: "nothing to redo")
        #expect(try store.snapshot() == before)
    }

    @Test func aNewCommandAfterUndoDropsTheRedo() throws {
        try store.add("A")
        try store.add("B")
        try store.run("undo")
        try store.add("C")
        let before = try store.snapshot()

        let result = try store.run("redo")

        expectRefused(result, saying: "nothing to redo")
        #expect(try store.snapshot() == before)
        #expect(try store.titles() == ["A", "C"])
    }

    @Test func aRefusedCommandAfterUndoKeepsTheRedo() throws {
        try store.add("A")
        try store.add("B")
        try store.run("undo")
        try store.run("rm", "99")

        let result = try store.run("redo")

        #expect(result.status == 0)
        #expect(try store.titles() == ["A", "B"])
    }
}
