import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

struct UndoTests {
    let directory: TemporaryDirectory
    var url: URL { directory.file("library.sqlite") }

    init() throws { directory = try TemporaryDirectory() }

    private func classics() throws -> Library {
        let library = try Library.open(at: url)
        for draft in AlbumDraft.classics { try library.albums.append(draft) }
        return library
    }

    /// Runs `change`, checks undo restores every row exactly and redo restores the changed rows.
    private func expectUndoAndRedo(_ library: Library, _ change: () throws -> Void) throws {
        let before = try library.rows(of: "albums")
        try change()
        let after = try library.rows(of: "albums")
        #expect(after != before)

        try library.undo()
        #expect(try library.rows(of: "albums") == before)
        try library.redo()
        #expect(try library.rows(of: "albums") == after)
    }

    @Test func undoAndRedoOfAppend() throws {
        let library = try classics()
        try expectUndoAndRedo(library) { try library.albums.append(.sample("Low")) }
    }

    @Test func undoAndRedoOfInsert() throws {
        let library = try classics()
        try expectUndoAndRedo(library) { try library.albums.insert(.sample("Low"), at: 2) }
    }

    @Test func undoAndRedoOfEdit() throws {
        let library = try classics()
        let album = try library.albums.album(at: 1)
        try expectUndoAndRedo(library) { try library.albums.update(id: album.id) { $0.year = 2001 } }
    }

    @Test func undoAndRedoOfMove() throws {
        let library = try classics()
        let album = try library.albums.album(at: 4)
        try expectUndoAndRedo(library) { try library.albums.move(id: album.id, to: 0) }
        #expect(try library.albums.index(of: album.id) == 0)
    }

    @Test func undoAndRedoOfDeleteById() throws {
        let library = try classics()
        let album = try library.albums.album(at: 2)
        try expectUndoAndRedo(library) { try library.albums.delete(id: album.id) }
    }

    @Test func undoAndRedoOfABulkAppendAcrossProcesses() throws {
        var library = try classics()
        let before = try library.rows(of: "albums")
        try library.albums.append(contentsOf: (0..<3000).map { .sample("bulk \($0)") })
        let after = try library.rows(of: "albums")

        library = try Library.open(at: url)
        try library.undo()
        #expect(try library.rows(of: "albums") == before)
        library = try Library.open(at: url)
        try library.redo()
        #expect(try library.rows(of: "albums") == after)
        try library.undo()
        #expect(try library.rows(of: "albums") == before)
        #expect(try library.albums.album(at: 4).title == "American Pie")
    }

    @Test func aBulkAppendIsOneHistoryEntryKeptAsItsIDs() throws {
        let library = try classics()
        let ids = try library.albums.append(contentsOf: (0..<10).map { .sample("bulk \($0)") })

        #expect(try library.historyEntries().last?.description == "add 10 albums")
        let stored = try Connection(path: library.path).first(
            "SELECT length(changeset), appended_ids FROM history ORDER BY id DESC LIMIT 1"
        ) { (try $0[0, as: Int.self], try $0[1, as: String.self]) }
        #expect(stored?.0 == 0)
        #expect(stored?.1 == ids.rangeList)
    }

    @Test func aBulkAppendOfOneAlbumNamesIt() throws {
        let library = try classics()
        try library.albums.append(contentsOf: [.sample("alone")])

        #expect(try library.historyEntries().last?.description == "add “alone” by Artist")
    }

    @Test func undoOfDeleteRestoresTheSameRowIdPositionAndFieldsAfterReopening() throws {
        var library = try classics()
        let album = try library.albums.album(at: 3)
        let before = try library.rows(of: "albums")
        try library.albums.delete(at: 3)

        library = try Library.open(at: url)   // a later process
        try library.undo()

        #expect(try library.rows(of: "albums") == before)
        #expect(try library.albums.album(at: 3) == album)
    }

    @Test func aNewChangeAfterUndoDropsTheRedoStack() throws {
        let library = try classics()
        try library.albums.delete(at: 0)
        try library.undo()
        try library.albums.append(.sample("Low"))

        #expect(throws: HistoryError.nothingToRedo) { try library.redo() }
        #expect(try library.historyEntries().allSatisfy { !$0.isUndone })
    }

    @Test func undoWithEmptyHistoryAndRedoWithNothingUndoneAreErrors() throws {
        let library = try Library.open(at: url)
        #expect(throws: HistoryError.nothingToUndo) { try library.undo() }
        #expect(throws: HistoryError.nothingToRedo) { try library.redo() }
    }

    @Test func undoGoesBackStepByStepThroughEveryCommand() throws {
        let library = try Library.open(at: url)
        var states = [try library.rows(of: "albums")]
        for draft in AlbumDraft.classics {
            try library.albums.append(draft)
            states.append(try library.rows(of: "albums"))
        }
        for state in states.reversed().dropFirst() {
            try library.undo()
            #expect(try library.rows(of: "albums") == state)
        }
        #expect(try library.titles().isEmpty)
    }

    @Test func historyKeepsOnlyTheLimitOfCommandsWithDescriptions() throws {
        let library = try Library.open(at: url, configuration: .init(historyLimit: 3))
        for draft in AlbumDraft.classics { try library.albums.append(draft) }

        let entries = try library.historyEntries()
        #expect(entries.map(\.description) == ["add “Nothing Like The Sun” by Sting", "add “Staring at the Sea” by The Cure", "add “American Pie” by Madonna"])
        for _ in 0..<3 { try library.undo() }
        #expect(throws: HistoryError.nothingOlderToUndo(limit: 3)) { try library.undo() }
        #expect(try library.titles() == ["Best of Bowie", "It's My Life"])
    }

    @Test func commandsThatChangeNothingRecordNothing() throws {
        let library = try classics()
        let album = try library.albums.album(at: 2)
        try library.albums.move(id: album.id, to: 2)
        try library.albums.update(id: album.id) { $0.title = album.title }
        #expect(try library.historyEntries().count == 5)
    }

    @Test func undoRefusesWhenTheRowChangedBehindTheHistorysBack() throws {
        let library = try classics()
        let album = try library.albums.album(at: 0)
        try library.albums.update(id: album.id) { $0.year = 1993 }
        try Connection(path: url.path).run("UPDATE albums SET year = 1994 WHERE id = ?", album.id)
        let before = try library.rows(of: "albums")

        #expect(throws: HistoryError.self) { try library.undo() }
        #expect(try library.rows(of: "albums") == before)
    }
}

extension UndoTests {
    @Test func canUndoAndCanRedoFollowTheHistory() throws {
        let library = try Library.open(at: url)
        #expect(try !library.canUndo() && !library.canRedo())
        try library.albums.append(.sample("Low"))
        #expect(try library.canUndo() && !library.canRedo())
        try library.undo()
        #expect(try !library.canUndo() && library.canRedo())
        try library.redo()
        #expect(try library.canUndo() && !library.canRedo())
        // Saving session state is no step.
        try library.session.setCurrentAlbum(at: 0)
        try library.undo()
        #expect(try !library.canUndo() && library.canRedo())
    }

    @Test func canUndoAndCanRedoHaveAsyncTwins() async throws {
        let library = try Library.open(at: url)
        try library.albums.append(.sample("Low"))
        let (canUndo, canRedo) = (try await library.canUndo(), try await library.canRedo())
        #expect(canUndo && !canRedo)
    }
}
