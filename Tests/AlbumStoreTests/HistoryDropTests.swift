import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// Forgetting history: the way past a command whose undo conflicts with an outside change.
struct HistoryDropTests {
    let directory: TemporaryDirectory
    let library: Library

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
    }

    /// Adds two albums and edits the first; then changes that edit's column in the `sqlite3`
    /// shell, so that the edit's undo conflicts (an undo checks the columns it would restore).
    @discardableResult
    private func stuckUndo() throws -> (first: Album, second: Album) {
        let first = try library.albums.append(.sample("Low"))
        let second = try library.albums.append(.sample("Heroes"))
        try library.albums.update(id: first.id) { $0.year = 1977 }
        try SQLiteShell.run("UPDATE albums SET year = 1978 WHERE id = \(first.id)", on: library.path)
        return (first, second)
    }

    @Test func anOutsideEditMakesEveryUndoOfTheCommandConflict() throws {
        try stuckUndo()
        for _ in 0..<2 {
            #expect(throws: HistoryError.self) { try library.undo() }
        }
    }

    @Test func droppingTheNewestCommandLetsTheOneBeforeItBeUndone() throws {
        let (first, second) = try stuckUndo()

        let dropped = try library.dropNewestHistoryEntry()

        #expect(dropped.description == "edit \(first.quoted)")
        #expect(try library.albums.album(id: first.id)?.year == 1978)   // dropping changes no album
        #expect(try library.undo().description == "add \(second.quoted)")
        #expect(try library.albums.album(id: second.id) == nil)
        #expect(try library.titles() == ["Low"])
    }

    @Test func droppingKeepsTheRedoStack() throws {
        try library.albums.append(.sample("Low"))
        let heroes = try library.albums.append(.sample("Heroes"))
        let lodger = try library.albums.append(.sample("Lodger"))
        try library.undo()   // Lodger's add is on the redo stack

        try library.dropNewestHistoryEntry()   // forgets Heroes' add

        #expect(try library.historyEntries().map(\.description) == ["add “Low” by Artist", "add \(lodger.quoted)"])
        try library.redo()
        #expect(try library.titles() == ["Low", "Heroes", "Lodger"])
        #expect(try library.albums.album(id: heroes.id) != nil)
    }

    @Test func droppingAllForgetsEveryCommandDoneAndUndone() throws {
        try library.albums.append(.sample("Low"))
        try library.albums.append(.sample("Heroes"))
        try library.undo()

        #expect(try library.dropHistory() == 2)

        #expect(try library.historyEntries().isEmpty)
        #expect(throws: HistoryError.nothingToUndo) { try library.undo() }
        #expect(throws: HistoryError.nothingToRedo) { try library.redo() }
        #expect(try library.titles() == ["Low"])
    }

    @Test func droppingWithNothingToUndoIsRefused() throws {
        #expect(throws: HistoryError.nothingToUndo) { try library.dropNewestHistoryEntry() }
        #expect(try library.dropHistory() == 0)
    }
}
