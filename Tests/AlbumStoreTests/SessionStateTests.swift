import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// Session state: the current album, the tab order and keys (`library.session`).
struct SessionStateTests {
    let directory: TemporaryDirectory
    var url: URL { directory.file("library.sqlite") }

    init() throws { directory = try TemporaryDirectory() }

    private func library(albums: Int, at url: URL? = nil) throws -> Library {
        let library = try Library.open(at: url ?? self.url)
        if albums > 0 { try library.albums.append(contentsOf: (0..<albums).map { .sample("Album \($0)") }) }
        return library
    }

    /// Saves `index` as another program would (no album id), then reads it back.
    private func readBack(savedIndex index: Int, albums: Int) throws -> ResolvedCurrentAlbum? {
        // A file each: the edges are read back one after another.
        let url = directory.file("\(UUID().uuidString).sqlite")
        let library = try library(albums: albums, at: url)
        try Connection(path: url.path).run(
            "INSERT INTO session_state (id, item, value) VALUES (1, 'current_album', ?)", "{\"index\":\(index)}")
        return try library.session.currentAlbum()
    }

    // MARK: Current album

    @Test func clampingOnEveryEdge() throws {
        #expect(CurrentAlbum.clamped(0, count: 0) == nil)
        #expect(CurrentAlbum.clamped(-1, count: 0) == nil)
        #expect(CurrentAlbum.clamped(-5, count: 3) == 0)
        #expect(CurrentAlbum.clamped(Int.min, count: 3) == 0)
        #expect(CurrentAlbum.clamped(3, count: 3) == 2)    // exactly the end
        #expect(CurrentAlbum.clamped(2, count: 3) == 2)    // the last
        #expect(CurrentAlbum.clamped(Int.max, count: 3) == 2)
        #expect(CurrentAlbum.clamped(1, count: 3) == 1)
    }

    @Test func aSavedIndexReadsBackClampedToTheList() throws {
        #expect(try readBack(savedIndex: 1, albums: 0) == nil)              // empty library: none
        #expect(try readBack(savedIndex: -3, albums: 4)?.album.title == "Album 0")
        #expect(try readBack(savedIndex: 4, albums: 4)?.album.title == "Album 3")   // exactly the end
        #expect(try readBack(savedIndex: 99, albums: 4)?.album.title == "Album 3")
        let middle = try #require(try readBack(savedIndex: 2, albums: 4))
        #expect(middle.album.title == "Album 2" && middle.index == 2 && !middle.isSavedAlbum)
    }

    @Test func theCurrentAlbumIsFoundByIDAfterItMoved() throws {
        let library = try library(albums: 5)
        let saved = try library.session.setCurrentAlbum(at: 1)
        let album = try library.albums.album(at: 1)
        #expect(saved == CurrentAlbum(index: 1, albumID: album.id))

        try library.albums.move(id: album.id, to: 4)
        try library.albums.insert(.sample("New first"), at: 0)
        let current = try #require(try library.session.currentAlbum())
        #expect(current.album == album && current.index == 5 && current.isSavedAlbum)
    }

    @Test func aDeletedCurrentAlbumFallsBackToTheClampedIndex() throws {
        let library = try library(albums: 3)
        let last = try library.albums.album(at: -1)
        #expect(try library.session.setCurrentAlbum(at: -1) == CurrentAlbum(index: 2, albumID: last.id))
        try library.albums.delete(id: last.id)

        let current = try #require(try library.session.currentAlbum())
        #expect(current.album.title == "Album 1" && current.index == 1 && !current.isSavedAlbum)
        try library.albums.delete(at: 0)
        try library.albums.delete(at: 0)
        #expect(try library.session.currentAlbum() == nil)
    }

    @Test func savingByIDKeepsTheIndexNowAndRefusesAMissingAlbum() throws {
        let library = try library(albums: 3)
        let album = try library.albums.album(at: 2)
        #expect(try library.session.setCurrentAlbum(id: album.id) == CurrentAlbum(index: 2, albumID: album.id))
        let rows = try ["session_state", "change_control", "change_log"].map { try library.rows(of: $0) }
        #expect(throws: AlbumError.notFound(id: 999)) { try library.session.setCurrentAlbum(id: 999) }
        #expect(throws: AlbumError.indexOutOfRange(index: 3, valid: 0...2)) { try library.session.setCurrentAlbum(at: 3) }
        #expect(try library.session.state().currentAlbum == CurrentAlbum(index: 2, albumID: album.id))
        // Refused under the lock: rolled back, the change log too.
        #expect(try ["session_state", "change_control", "change_log"].map { try library.rows(of: $0) } == rows)
    }

    @Test func theCurrentAlbumSavedAtAnIndexIsTheAlbumThereInEveryBlock() throws {
        let library = try library(albums: 20_000)   // several blocks of order statistics
        try library.albums.insert(.sample("in between"), at: 6_000)
        let ids = try library.albums.page().map(\.album.id)
        for index in [0, 1, 4_095, 4_096, 6_000, 8_191, 8_192, 10_000, 17_000, 20_000] {
            #expect(try library.session.setCurrentAlbum(at: index) == CurrentAlbum(index: index, albumID: ids[index]))
            #expect(try library.session.currentAlbum()?.album.id == ids[index])
            #expect(try library.session.setCurrentAlbum(id: ids[index]) == CurrentAlbum(index: index, albumID: ids[index]))
            #expect(try library.session.setCurrentAlbum(id: ids[index == 0 ? 1 : index - 1]).index == (index == 0 ? 1 : index - 1))
        }
        #expect(try library.session.setCurrentAlbum(at: -1) == CurrentAlbum(index: 20_000, albumID: ids[20_000]))
        #expect(try library.session.setCurrentAlbum(at: -20_001) == CurrentAlbum(index: 0, albumID: ids[0]))
        #expect(throws: AlbumError.indexOutOfRange(index: -20_002, valid: 0...20_000)) {
            try library.session.setCurrentAlbum(at: -20_002)
        }
    }

    @Test func aCurrentAlbumSaveRebuildsCountsThatMissedWritesAndUsesThem() throws {
        let library = try library(albums: 10_000)
        try SQLiteShell.run("DROP TRIGGER albums_order_update; UPDATE albums SET position = -1 WHERE id = 10000;", on: library.path)
        #expect(try !BlockCounts(path: library.path).areChecked)

        let moved = try library.albums.album(id: 10_000)
        #expect(try library.session.setCurrentAlbum(at: 0) == CurrentAlbum(index: 0, albumID: moved?.id))
        // Rebuilt in the save's transaction, the trigger back: the counts are right and in use.
        try expectOrderStatisticsMatchTheTable(library)
        #expect(try ChangeLogTriggerInstaller().plan(in: Connection(path: library.path)).isEmpty)
        #expect(try library.session.setCurrentAlbum(at: 9_999).albumID == library.albums.album(at: 9_999).id)
    }

    @Test func theCurrentAlbumSavedAtAnIndexFollowsEveryChangeToTheList() throws {
        let library = try library(albums: 10_000)
        let other = try Library.open(at: url)
        let expectSavedAlbumIsTheOneThere = { (comment: Comment, sourceLocation: SourceLocation) in
            let ids = try library.albums.page().map(\.album.id)
            for index in [0, 3_000, 5_000, 7_000, ids.count - 1] {
                #expect(try library.session.setCurrentAlbum(at: index).albumID == ids[index], comment, sourceLocation: sourceLocation)
                #expect(try library.session.setCurrentAlbum(id: ids[index]).index == index, comment, sourceLocation: sourceLocation)
            }
        }
        try expectSavedAlbumIsTheOneThere("first saves", #_sourceLocation)
        // Another connection (the same process: a process of its own commits the same way).
        try other.albums.delete(at: 100)
        try other.albums.insert(.sample("elsewhere"), at: 4_000)
        try expectSavedAlbumIsTheOneThere("after another connection's commands", #_sourceLocation)
        try SQLiteShell.run("DELETE FROM albums WHERE id BETWEEN 200 AND 260;", on: url.path)
        try expectSavedAlbumIsTheOneThere("after another program's delete", #_sourceLocation)
        // This library's own commands, and other navigation in between.
        try library.albums.move(id: try library.albums.album(at: 9_000).id, to: 10)
        try expectSavedAlbumIsTheOneThere("after a move", #_sourceLocation)
        try library.session.setTabOrder(["a", "b"])
        try library.session.setValue(.integer(1), forKey: "k")
        try library.albums.delete(at: 0)
        try expectSavedAlbumIsTheOneThere("after navigation and a delete", #_sourceLocation)
        try library.undo()
        try expectSavedAlbumIsTheOneThere("after an undo", #_sourceLocation)
    }

    @Test func theBlocksTheCurrentAlbumSaveReadHoldUntilAnAlbumChangesWhoeverChangesIt() throws {
        let library = try library(albums: 10_000)
        let other = try Library.open(at: url)
        let cached = {
            try library.database.withWriter { connection in
                try connection.read {
                    let state = try OrderBlocksCache.State(of: connection, cursor: try ChangeLog.latestCursor(in: connection))
                    return try library.orderBlocks.blocks(in: state, connection: connection) != nil
                }
            }
        }
        try library.session.setCurrentAlbum(at: 10)
        #expect(try cached())
        try library.session.setCurrentAlbum(at: 9_000)
        try library.session.setTabOrder(["a", "b"])
        try library.session.setValue(.string("v"), forKey: "k")
        try other.session.setValue(.string("w"), forKey: "k")
        try SQLiteShell.run("CREATE TABLE mine (x); INSERT INTO mine VALUES (1);", on: url.path)
        #expect(try !cached(), "another program changed the schema")
        // The first save after it checks the counts against the new schema version (and counts
        // again); the next one reads them into the cache.
        try library.session.setCurrentAlbum(at: 10)
        try library.session.setCurrentAlbum(at: 11)
        try SQLiteShell.run("INSERT INTO mine VALUES (2);", on: url.path)
        #expect(try cached(), "navigation and commits that change no album, in this process or another")

        try library.albums.delete(at: 0)
        #expect(try !cached(), "a command")
        try library.session.setCurrentAlbum(at: 10)
        try other.albums.move(id: 5, to: 7_000)
        #expect(try !cached(), "another connection's command")
        try library.session.setCurrentAlbum(at: 10)
        try SQLiteShell.run("UPDATE albums SET title = 'edited' WHERE id = 3;", on: url.path)
        #expect(try !cached(), "another program's edit")
    }

    @Test func theCurrentAlbumIsStoredAsItsJSONValueReads() throws {
        for current in [CurrentAlbum(index: 3, albumID: 42), CurrentAlbum(index: 0, albumID: nil),
                        CurrentAlbum(index: Int.max, albumID: .min), CurrentAlbum(index: -1, albumID: .max)] {
            #expect(current.jsonText == current.json.description)
        }
        let library = try library(albums: 3)
        let saved = try library.session.setCurrentAlbum(at: 2)
        let stored = try Connection(path: library.path).scalar("SELECT value FROM session_state WHERE id = 1", as: String.self)
        #expect(stored == saved.json.description)
    }

    @Test func savingTheCurrentAlbumTakesNoUndoStepAndIsObserved() throws {
        let library = try library(albums: 3)
        let entries = try library.historyEntries()
        var changes = library.changes.makeAsyncIterator()
        try library.session.setCurrentAlbum(at: 1)
        #expect(try library.historyEntries() == entries)
        let sets = changes.drain()
        #expect(sets.count == 1)
        #expect(sets.first?.tables == ["session_state": TableChanges(inserted: RowIDs([1]))])
    }

    @Test func eachNavigationWriteIsAChangeSetOfItsOwnInTheFileAndARestoreIsOne() throws {
        let library = try library(albums: 3)
        try library.session.setValue(.integer(0), forKey: "a")
        try library.session.takeSnapshot(named: "start")
        let cursor = try library.read { try ChangeLog.latestCursor(in: $0) }
        try library.albums.insert(.sample("new"), at: 0)
        try library.session.setCurrentAlbum(at: 1)
        try library.session.setValue(.integer(1), forKey: "a")
        try library.session.setTabOrder(["x", "y"])
        try library.session.takeSnapshot(named: "then")
        try library.session.setCurrentAlbum(at: 2)
        try library.session.restoreSnapshot(named: "start")
        // Another program changes two rows in one transaction: a change set a row.
        try SQLiteShell.run("UPDATE session_keys SET value = '2'; INSERT INTO session_keys (key, value) VALUES ('b', '3');",
                            on: url.path)
        // As another process reads the file (its feed), not as this library published them.
        let sets = try ChangeLog.changeSets(after: cursor, in: Connection(path: url.path))
        #expect(sets.map { $0.tables.keys.sorted() } == [
            ["albums"], ["session_state"], ["session_keys"], ["session_state"], ["session_snapshots"], ["session_state"],
            ["session_keys", "session_state"], ["session_keys"], ["session_keys"],
        ])
        let numbers = sets.map(\.transaction)
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "\(numbers)")
    }

    // MARK: Tab order

    @Test func theDefaultTabOrderAppliesUntilOneIsSaved() throws {
        let session = try library(albums: 0).session
        #expect(try session.tabOrder() == [])
        #expect(try session.setDefaultTabOrder(["albums", "covers", "details"]))
        #expect(try session.tabOrder() == ["albums", "covers", "details"])
        #expect(try session.setTabOrder(["details", "albums"]))
        #expect(try session.tabOrder() == ["details", "albums"])
        try session.resetTabOrder()
        #expect(try session.tabOrder() == ["albums", "covers", "details"])
    }

    @Test func savingAnUnchangedTabOrderMakesNoTransactionAndNoChangeSet() throws {
        let library = try library(albums: 2)
        try library.session.setTabOrder(["albums", "covers"])
        let other = try Connection(path: url.path)
        let version = try other.dataVersion()
        let rows = try library.rows(of: "change_log")
        var changes = library.changes.makeAsyncIterator()

        #expect(try library.session.setTabOrder(["albums", "covers"]) == false)

        #expect(try other.dataVersion() == version)          // no other connection committed
        #expect(try library.rows(of: "change_log") == rows)  // nothing logged
        #expect(changes.drain().isEmpty)
        // A changed order does all three: the check above can fail.
        #expect(try library.session.setTabOrder(["covers", "albums"]))
        #expect(try other.dataVersion() != version)
        #expect(try library.rows(of: "change_log") != rows)
        #expect(changes.drain().count == 1)
    }

    @Test func duplicateAndEmptyTabsAreRefusedAndNothingChanges() throws {
        let library = try library(albums: 0)
        try library.session.setTabOrder(["a", "b"])
        let rows = try library.rows(of: "session_state")
        #expect(throws: SessionError.invalidTabOrder(reason: "tab 2 repeats \"a\"")) {
            try library.session.setTabOrder(["a", "b", "a"])
        }
        #expect(throws: SessionError.invalidTabOrder(reason: "tab 1 is an empty identifier")) {
            try library.session.setDefaultTabOrder(["a", ""])
        }
        #expect(try library.rows(of: "session_state") == rows)
    }

    // MARK: Keys

    @Test func keysKeepAnyJSONValueAndRefuseOversizedOnes() throws {
        let session = try library(albums: 0).session
        let value = JSONValue.object(["volume": .double(0.8), "muted": .bool(false), "ids": .array([.integer(1), .null])])
        #expect(try session.setValue(value, forKey: "player"))
        #expect(try session.setValue(value, forKey: "player") == false)
        #expect(try session.value(forKey: "player") == value)
        #expect(try session.value(forKey: "missing") == nil)

        let big = JSONValue.string(String(repeating: "x", count: SessionKey.maxValueBytes))
        #expect(throws: SessionError.self) { try session.setValue(big, forKey: "big") }
        #expect(throws: SessionError.self) { try session.setValue(.null, forKey: "") }
        #expect(try session.removeValue(forKey: "player"))
        #expect(try session.removeValue(forKey: "player") == false)
        #expect(try session.state().keys.isEmpty)
    }

    @Test func aKeyKeepsItsRowIDWhenSavedAgain() throws {
        let library = try library(albums: 0)
        try library.session.setValue(.integer(1), forKey: "a")
        let id: Int64? = try Connection(path: url.path).scalar("SELECT id FROM session_keys WHERE key = 'a'")
        var changes = library.changes.makeAsyncIterator()
        try library.session.setValue(.integer(2), forKey: "a")
        let updated = try #require(id)
        #expect(changes.drain().first?.tables == ["session_keys": TableChanges(updated: RowIDs([updated]))])
    }

    @Test func aValueAnotherProgramBrokeIsReportedAndCanBeSavedOver() throws {
        let library = try library(albums: 0)
        try library.session.setTabOrder(["a"])
        try Connection(path: url.path).run("UPDATE session_state SET value = '[1, 2' WHERE id = 2")
        #expect(throws: SessionError.self) { try library.session.state() }
        do {
            _ = try library.session.tabOrder()
        } catch {
            #expect("\(error)".hasPrefix("the stored tab order cannot be read (not JSON"))
        }
        try Connection(path: url.path).run("UPDATE session_state SET value = '[\"a\", 7]' WHERE id = 2")
        #expect(throws: SessionError.unreadableStoredValue(item: "tab order", reason: "[1]: expected a string, found a number")) {
            try library.session.tabOrder()
        }
        #expect(try library.session.setTabOrder(["b"]))
        #expect(try library.session.tabOrder() == ["b"])
    }
}

extension SessionStateTests {
    @Test func anUnreadableKeyCanBeRemoved() throws {
        let library = try library(albums: 0)
        try library.session.setValue(.integer(1), forKey: "broken")
        try Connection(path: url.path).run("UPDATE session_keys SET value = '{' WHERE key = 'broken'")
        #expect(throws: SessionError.self) { try library.session.value(forKey: "broken") }
        #expect(try library.session.removeValue(forKey: "broken"))
        #expect(try library.session.state().keys.isEmpty)
    }
}

extension SessionStateTests {
    @Test func valuesComeBackAsSaved() throws {
        let session = try library(albums: 0).session
        try session.setValue(UInt64.max, forKey: "big")
        #expect(try session.value(UInt64.self, forKey: "big") == UInt64.max)
        try session.setValue(Int64.min, forKey: "small")
        #expect(try session.value(Int64.self, forKey: "small") == Int64.min)

        try session.setValue(-0.0, forKey: "zero")
        let zero = try #require(try session.value(Double.self, forKey: "zero"))
        #expect(zero == 0 && zero.sign == .minus)
        // 0.0 after -0.0 is a change, and is saved.
        #expect(try session.setValue(0.0, forKey: "zero"))
        #expect(try session.value(Double.self, forKey: "zero")?.sign == .plus)

        let none: Int? = nil
        try session.setValue(none, forKey: "nothing")
        #expect(try session.value(Int.self, forKey: "nothing") == nil)
        #expect(try session.value(forKey: "nothing") == JSONValue.null)
        #expect(try session.value(forKey: "missing") == nil)
    }

    @Test func oneRuleForTabIdentifiers() throws {
        let library = try library(albums: 0)
        let session = library.session
        try session.setDefaultTabOrder(["albums", "stats"])
        let rows = try library.rows(of: "session_state")
        let refusals: [([String], String)] = [
            ([], "an order needs at least one tab (to show the default order, reset the saved one)"),
            (["albums", "albums "], "tab 1 starts or ends with white space or a control character"),
            ([" albums"], "tab 0 starts or ends with white space or a control character"),
            (["albums\t"], "tab 0 starts or ends with white space or a control character"),
            (["caf\u{E9}", "cafe\u{301}"], "tab 1 repeats \"caf\u{E9}\""),   // canonically equal
        ]
        for (tabs, reason) in refusals {
            #expect(throws: SessionError.invalidTabOrder(reason: reason)) { try session.setTabOrder(tabs) }
        }
        #expect(throws: SessionError.self) { try session.setDefaultTabOrder([]) }
        #expect(try library.rows(of: "session_state") == rows)
        #expect(try session.tabOrder() == ["albums", "stats"])
        // Inner spaces are part of a name.
        #expect(try session.setTabOrder(["my albums", "stats"]))
    }

    @Test func anEmptyOrderSavedEarlierReadsBackAsSaved() throws {
        let library = try library(albums: 0)
        try library.session.setTabOrder(["a"])
        try Connection(path: url.path).run("UPDATE session_state SET value = '[]' WHERE id = 2")
        #expect(try library.session.tabOrder() == [])
        try library.session.resetTabOrder()
        #expect(try library.session.tabOrder() == [])
    }
}

