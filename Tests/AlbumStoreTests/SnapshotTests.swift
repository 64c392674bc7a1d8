import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// Snapshots of the session state: take, list, diff, restore (undoable), delete.
struct SnapshotTests {
    let directory: TemporaryDirectory
    let library: Library

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
        try library.albums.append(contentsOf: (0..<4).map { .sample("Album \($0)") })
    }

    private var session: Session { library.session }

    /// Current album at 1, tabs a b, default tabs a b c, keys volume and theme.
    private func arrange() throws {
        try session.setCurrentAlbum(at: 1)
        try session.setDefaultTabOrder(["a", "b", "c"])
        try session.setTabOrder(["a", "b"])
        try session.setValue(.double(0.5), forKey: "volume")
        try session.setValue(.string("dark"), forKey: "theme")
    }

    @Test func aSnapshotCopiesTheWholeStateAndIsListed() throws {
        try arrange()
        let taken = try session.takeSnapshot(named: "evening", at: Date(millisecondsSince1970: 1_700_000_000_123))
        #expect(taken.state == (try session.state()))
        #expect(try session.snapshot(named: "evening") == taken)
        let unnamed = try session.takeSnapshot(at: Date(millisecondsSince1970: 1_700_000_000_000))
        let again = try session.takeSnapshot(at: Date(millisecondsSince1970: 1_700_000_000_000))
        #expect(unnamed.name == "snapshot-2023-11-14T22:13:20Z" && again.name == "snapshot-2023-11-14T22:13:20Z-2")
        #expect(try session.snapshots().map(\.name) == [unnamed.name, again.name, "evening"])
        #expect(throws: SessionError.snapshotExists("evening")) { try session.takeSnapshot(named: "evening") }
    }

    @Test func diffNamesEachChangedItemWithBothValues() throws {
        try arrange()
        try session.takeSnapshot(named: "before")
        try session.setTabOrder(["b", "a"])
        try session.setValue(.double(0.9), forKey: "volume")
        try session.removeValue(forKey: "theme")
        try session.setValue(.bool(true), forKey: "shuffle")
        try session.takeSnapshot(named: "after")

        let expected = [
            SessionDifference(item: .tabOrder, before: .array([.string("a"), .string("b")]), after: .array([.string("b"), .string("a")])),
            SessionDifference(item: .key("shuffle"), before: nil, after: .bool(true)),
            SessionDifference(item: .key("theme"), before: .string("dark"), after: nil),
            SessionDifference(item: .key("volume"), before: .double(0.5), after: .double(0.9)),
        ]
        #expect(try session.differences(from: "before", to: "after") == expected)
        #expect(try session.differences(from: "before") == expected)
        #expect(try session.differences(from: "after").isEmpty)
        #expect(throws: SessionError.noSuchSnapshot("nope")) { try session.differences(from: "nope") }
    }

    @Test func restoreNotifiesOnlyTheChangedItems() throws {
        try arrange()
        try session.takeSnapshot(named: "s")
        try session.setValue(.double(0.9), forKey: "volume")
        try session.setValue(.integer(3), forKey: "added")
        let ids = try library.rows(of: "session_keys").reduce(into: [String: Int64]()) { ids, row in
            if case let .integer(id) = row[0], case let .text(key) = row[1] { ids[key] = id }
        }
        var changes = library.changes.makeAsyncIterator()

        let restore = try session.restoreSnapshot(named: "s")

        #expect(restore.changed == [.key("added"), .key("volume")])
        let sets = changes.drain()
        #expect(sets.count == 1)
        let keys = try #require(ids["volume"]), added = try #require(ids["added"])
        #expect(sets.first?.tables == ["session_keys": TableChanges(updated: RowIDs([keys]), deleted: RowIDs([added]))])
        #expect(try session.state() == (try session.snapshot(named: "s").state))
    }

    @Test func restoreIsOneUndoableCommand() throws {
        try arrange()
        try session.takeSnapshot(named: "s")
        try session.setCurrentAlbum(at: 3)
        try session.setTabOrder(["c"])
        try session.removeValue(forKey: "theme")
        let changed = try session.state()
        let entries = try library.historyEntries().count

        try session.restoreSnapshot(named: "s")
        #expect(try library.historyEntries().count == entries + 1)
        #expect(try session.state() == (try session.snapshot(named: "s").state))

        try library.undo()
        #expect(try session.state() == changed)
        try library.redo()
        #expect(try session.state() == (try session.snapshot(named: "s").state))
    }

    @Test func aPartialRestoreTouchesOnlyTheNamedItems() throws {
        try arrange()
        try session.takeSnapshot(named: "s")
        try session.setCurrentAlbum(at: 3)
        try session.setTabOrder(["c"])
        try session.setValue(.double(0.1), forKey: "volume")
        try session.setValue(.string("light"), forKey: "theme")

        let restore = try session.restoreSnapshot(named: "s", only: Set(SessionItem.parse("tabs") + SessionItem.parse("volume")))
        #expect(restore.changed == [.tabOrder, .key("volume")])
        let state = try session.state()
        #expect(state.tabOrder == ["a", "b"] && state.keys["volume"] == .double(0.5))
        #expect(state.keys["theme"] == .string("light") && state.currentAlbum?.index == 3)
    }

    @Test func aRestoredAlbumThatNoLongerExistsFallsBackToTheClampedIndex() throws {
        try session.setCurrentAlbum(at: 3)
        try session.takeSnapshot(named: "s")
        try session.setCurrentAlbum(at: 0)
        try library.albums.delete(at: 3)

        let restore = try session.restoreSnapshot(named: "s")
        let current = try #require(restore.currentAlbum)
        #expect(!current.isSavedAlbum && current.index == 2 && current.album.title == "Album 2")
    }

    @Test func aRefusedRestoreOrDeleteChangesNothing() throws {
        try arrange()
        let rows = try library.rows(of: "session_state")
        let history = try library.historyEntries()
        #expect(throws: SessionError.noSuchSnapshot("missing")) { try session.restoreSnapshot(named: "missing") }
        #expect(throws: SessionError.noSuchSnapshot("missing")) { try session.deleteSnapshot(named: "missing") }
        #expect(try library.rows(of: "session_state") == rows && library.historyEntries() == history)
    }

    @Test func deleteRemovesOnlyThatSnapshot() throws {
        try session.takeSnapshot(named: "one")
        try session.takeSnapshot(named: "two")
        try session.deleteSnapshot(named: "one")
        #expect(try session.snapshots().map(\.name) == ["two"])
    }
}

extension SnapshotTests {
    @Test func badSnapshotNamesAreRefused() throws {
        #expect(throws: SessionError.invalidSnapshotName("", reason: "a name cannot be empty")) { try session.takeSnapshot(named: "") }
        #expect(throws: SessionError.invalidSnapshotName("a\nb", reason: "a name cannot hold control characters")) {
            try session.takeSnapshot(named: "a\nb")
        }
        #expect(throws: SessionError.invalidKey("", reason: "a key cannot be empty")) { try session.setValue(.null, forKey: "") }
        #expect(try session.snapshots().isEmpty)
    }
}
