import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// Whatever another program writes into the file, commands give an answer or an error, never a
/// crash: the sqlite3 shell here is the other program.
struct OutsideWriterTests {
    let directory: TemporaryDirectory
    let library: Library

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
        for draft in AlbumDraft.classics { try library.albums.append(draft) }
    }

    /// Runs `sql` with the sqlite3 command-line shell, as a user would.
    private func shell(_ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [library.path, sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test(arguments: [Int64.max, Int64.max - 1, Int64.min, Int64.min + 1])
    func positionsAtTheLimitsOfTheKeyRangeNeitherCrashNorLoseTheOrder(extreme: Int64) throws {
        try shell("UPDATE albums SET position = \(extreme) WHERE id = (SELECT min(id) FROM albums)")
        var expected = try library.titles()

        try library.albums.append(.sample("appended"))
        expected.append("appended")
        try library.albums.insert(.sample("front"), at: 0)
        expected.insert("front", at: 0)
        try library.albums.insert(.sample("second"), at: 1)
        expected.insert("second", at: 1)
        let last = try library.albums.insert(.sample("before last"), at: expected.count - 1)
        expected.insert("before last", at: expected.count - 1)
        try library.albums.move(id: last.id, to: 0)
        expected.removeAll { $0 == "before last" }
        expected.insert("before last", at: 0)

        #expect(try library.titles() == expected)
        for (index, title) in expected.enumerated() { #expect(try library.albums.album(at: index).title == title) }
    }

    @Test func aVirtualGeneratedColumnAddedByAnotherProgramIsAnErrorThatChangesNothing() throws {
        try shell("ALTER TABLE albums ADD COLUMN loud TEXT GENERATED ALWAYS AS (upper(title)) VIRTUAL")
        let before = try library.titles()
        let error = try #require(throws: StorageError.self) { try library.albums.insert(.sample("new"), at: 1) }
        #expect("\(error)".contains("cannot record the changes to albums: its column 12 is not stored in its rows"))
        #expect(try library.titles() == before)
        // Reading goes on, and `check` says what is wrong and what to do.
        #expect(try library.albums.album(at: 0).title == before[0])
        #expect(try library.check().map(\.description) == [
            "history: albums.loud is a virtual generated column: commands that change albums fail, as their undo "
                + "cannot be recorded (drop the column to use them again)",
        ])
        try shell("ALTER TABLE albums DROP COLUMN loud")
        try library.albums.insert(.sample("new"), at: 1)
        #expect(try library.check().isEmpty)
    }

    @Test func everyAlbumAtTheTopOfTheKeyRangeStillTakesAppendsAndInserts() throws {
        try shell("UPDATE albums SET position = 9223372036854775807")
        try library.albums.append(.sample("appended"))
        try library.albums.insert(.sample("middle"), at: 3)
        #expect(try library.albums.count() == 7)
        #expect(try library.titles().last == "appended")
        #expect(try library.titles()[3] == "middle")
    }

    @Test func aRowInsertedBehindTheChangeLogsBackCrashesNoCommand() throws {
        _ = try library.albums.album(at: 4)   // the order index is built and shared
        // Bypass the change log: its triggers skip rows while `bulk` is set.
        try shell("""
            UPDATE change_control SET bulk = 1;
            INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (-1, 'sneaked in', 'X', 0, 0);
            DELETE FROM albums WHERE title = 'American Pie';
            UPDATE change_control SET bulk = 0;
            """)

        // Each command answers from the file as it is (the stale index is found out and rebuilt)
        // or throws: none crashes.
        _ = try? library.albums.album(at: 4)
        _ = try? library.albums.page(offset: 3, limit: 10)
        _ = try? library.albums.index(of: 1)
        _ = try? library.albums.insert(.sample("inserted"), at: 5)
        _ = try? library.albums.delete(at: 5)
        _ = try? library.albums.move(id: 1, to: 4)
        _ = try? library.undo()
        _ = try? library.redo()
        _ = try? library.albums.append(.sample("appended"))

        // A fresh process sees the truth, and this library agrees with it.
        let fresh = try Library.open(at: URL(fileURLWithPath: library.path))
        let truth = try fresh.titles()
        #expect(try library.titles() == truth)
        for index in truth.indices { #expect(try library.albums.album(at: index).title == truth[index]) }
    }

    @Test func storedValuesOfTheWrongTypeReadWithoutACrash() throws {
        try shell("""
            UPDATE albums SET created_at = 'yesterday', updated_at = 1e300, genre = x'00ff', cover_url = 3.5 WHERE id = 1;
            """)
        let album = try library.albums.album(id: 1)
        #expect(album?.title == "Best of Bowie")
        #expect(try library.albums.page().count == 5)
    }

    @Test func aHistoryEntryWithGarbageIsRefusedNotCrashedOn() throws {
        try library.albums.append(contentsOf: [.sample("a"), .sample("b")])
        try shell("UPDATE history SET appended_ids = '9223372036854775806-9223372036854775807,-5-x' WHERE appended_ids IS NOT NULL")
        _ = try? library.undo()
        try shell("UPDATE history SET changeset = x'deadbeef', appended_ids = NULL")
        #expect(throws: (any Error).self) { try library.undo() }
        #expect(try library.albums.count() == 7)
    }
}
