import Foundation
import Testing

/// After an outside edit, undo of the command that changed that row fails every time: the
/// message names `albumstore history drop`, which gets past it.
struct StuckUndoTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    /// Runs SQL on the library in the `sqlite3` shell: a change made outside albumstore.
    private func editOutside(_ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", "-bail", "-cmd", ".timeout 5000", store.db, sql]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "sqlite3 failed")
    }

    /// Adds Low and Heroes, edits Low's year, then changes that year in the sqlite3 shell.
    @discardableResult
    private func makeStuckUndo() throws -> (low: PrintedAlbum, heroes: PrintedAlbum) {
        let low = try store.add("Low", by: "David Bowie")
        let heroes = try store.add("Heroes", by: "David Bowie")
        try store.run("edit", String(low.id), "--year", "1977")
        try editOutside("UPDATE albums SET year = 1978 WHERE id = \(low.id)")
        return (low, heroes)
    }

    @Test func aStuckUndoSaysHowToGetPastIt() throws {
        try makeStuckUndo()
        let before = try store.snapshot()

        for _ in 0..<2 {
            let result = try store.run("undo")
            expectRefused(result, saying: "cannot undo or redo edit “Low” by David Bowie: cannot apply change to albums: "
                + "the row changed since; `albumstore history drop` forgets this command so older ones can be undone")
        }
        #expect(try store.snapshot() == before)
    }

    @Test func historyDropUnsticksUndo() throws {
        let (low, heroes) = try makeStuckUndo()

        let drop = try store.run("history", "drop")

        #expect(drop.status == 0)
        #expect(drop.stderr.hasPrefix("Forgot: edit “Low” by David Bowie (its changes stay)."))
        #expect(try store.album(id: low.id).year == 1978)
        let undo = try store.run("undo")
        #expect(undo.status == 0)
        #expect(undo.stderr.hasPrefix("Undid: add “Heroes” by David Bowie."))
        #expect(try store.albums().map(\.id) == [low.id])
        #expect(heroes.id != low.id)
    }

    @Test func historyDropAllForgetsEverythingAndIsNotUndoable() throws {
        try makeStuckUndo()

        let drop = try store.run("history", "drop", "--all")

        #expect(drop.status == 0)
        #expect(drop.stderr == "Forgot 3 commands: nothing is left to undo or redo.\n")
        #expect(try store.history().isEmpty)
        expectRefused(try store.run("undo"), saying: "nothing to undo")
        #expect(try store.titles() == ["Low", "Heroes"])
    }

    @Test func historyDropWithNothingToUndoIsRefused() throws {
        try store.run("init")
        expectRefused(try store.run("history", "drop"), saying: "nothing to undo")
    }

    @Test func historyHelpShowsItsOptionsAndTheDropSubcommand() throws {
        let help = try store.run("history", "--help").stdout

        #expect(help.contains("--format <format>"))
        #expect(help.contains("drop"))
    }

    @Test func undoAndHistoryDropHelpExplainTheWayOut() throws {
        #expect(try store.run("undo", "--help").stdout.contains("albumstore history drop"))
        let help = try store.run("history", "drop", "--help").stdout
        #expect(help.contains("cannot be undone"))
        #expect(help.contains("--all"))
    }
}
