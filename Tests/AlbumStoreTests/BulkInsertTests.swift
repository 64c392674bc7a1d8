import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// A bulk insert sets the table's known insert triggers aside, catches their followers up in
/// bulk, and leaves the schema as it found it; triggers it does not know keep firing.
struct BulkInsertTests {
    let directory: TemporaryDirectory
    let path: String
    let connection: Connection

    /// A follower kept by triggers, as a full-text index would be: a copy of each album's title.
    struct TitleCopy: InsertFollower {
        let table = "albums"
        let insertTriggers = ["album_titles_insert"]

        func catchUp(inserted ids: RowIDs, in connection: Connection) throws {
            for range in ids.ranges {
                try connection.run(
                    "INSERT INTO album_titles SELECT id, title FROM albums WHERE id BETWEEN ? AND ?",
                    range.lowerBound, range.upperBound)
            }
        }
    }

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.file("library.sqlite").path
        _ = try Library.open(at: directory.file("library.sqlite"))
        connection = try Connection(path: path)
        try connection.execute("""
            CREATE TABLE album_titles (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
            CREATE TRIGGER album_titles_insert AFTER INSERT ON albums
            BEGIN INSERT INTO album_titles VALUES (NEW.id, NEW.title); END;
            CREATE TRIGGER album_titles_update AFTER UPDATE OF title ON albums
            BEGIN UPDATE album_titles SET title = NEW.title WHERE id = NEW.id; END;
            CREATE TRIGGER album_titles_delete AFTER DELETE ON albums
            BEGIN DELETE FROM album_titles WHERE id = OLD.id; END;
            CREATE TABLE my_inserts (n INTEGER NOT NULL);
            INSERT INTO my_inserts VALUES (0);
            CREATE TRIGGER my_own_trigger AFTER INSERT ON albums
            BEGIN UPDATE my_inserts SET n = n + 1; END;
            """)
    }

    private func triggers() throws -> [String] {
        try connection.query("SELECT sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY name") { try $0[0, as: String.self] }
    }

    private func insert(_ titles: [String]) throws -> ClosedRange<Int64> {
        for title in titles {
            try connection.run("""
                INSERT INTO albums (position, title, artist, created_at, updated_at)
                VALUES ((SELECT coalesce(max(position), 0) + 1 FROM albums), ?, 'Artist', 0, 0)
                """, title)
        }
        let last = connection.lastInsertRowID
        return (last - Int64(titles.count) + 1)...last
    }

    @Test func followersCatchUpBeforeUpdatesAndDeletesAndTheTriggersComeBackAsTheyWere() throws {
        let before = try triggers()
        let ids = try connection.transaction(.immediate) {
            try BulkInsert.run(into: .albums, followers: [TitleCopy()], in: connection) { bulk in
                var ids = RowIDs()
                let first = try insert(["One", "Two", "Three"])
                ids.insert(first)
                bulk.inserted(first)
                // Aside: no row reached the copy, and the known insert triggers are gone.
                #expect(try connection.scalar("SELECT count(*) FROM album_titles", as: Int.self) == 0)
                let names = try connection.query("SELECT name FROM sqlite_schema WHERE type = 'trigger'") { try $0[0, as: String.self] }
                #expect(!names.contains("album_titles_insert"))
                #expect(!names.contains("albums_log_insert"))
                #expect(names.contains("my_own_trigger"))

                try bulk.catchUp()
                try connection.run("UPDATE albums SET title = 'Uno' WHERE id = ?", first.lowerBound)
                try connection.run("DELETE FROM albums WHERE id = ?", first.lowerBound + 1)
                let second = try insert(["Four", "Five"])
                ids.insert(second)
                bulk.inserted(second)
                return ids.removing([first.lowerBound + 1])
            }
        }
        #expect(try triggers() == before)
        let albums = try connection.query("SELECT id, title FROM albums ORDER BY id") { "\(try $0[0, as: Int64.self]) \(try $0[1, as: String.self])" }
        let copies = try connection.query("SELECT id, title FROM album_titles ORDER BY id") { "\(try $0[0, as: Int64.self]) \(try $0[1, as: String.self])" }
        #expect(albums.count == 4)
        #expect(copies == albums)
        #expect(albums.first?.hasSuffix("Uno") == true)
        // A trigger the library does not know fired for every row.
        #expect(try connection.scalar("SELECT n FROM my_inserts", as: Int.self) == 5)
        // The rows are logged as ranges, once each.
        let logged = try connection.query(
            "SELECT row_id, last_row_id FROM change_log WHERE operation = 'insert' ORDER BY seq"
        ) { try $0[0, as: Int64.self]...(try $0[1, as: Int64?.self] ?? $0[0, as: Int64.self]) }
        #expect(logged == ids.ranges)
    }

    @Test func aRollbackPutsTheTriggersBackUntouched() throws {
        let before = try triggers()
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try connection.transaction(.immediate) {
                _ = try BulkInsert.run(into: .albums, followers: [TitleCopy()], in: connection) { bulk in
                    bulk.inserted(try insert(["One"]))
                    throw Refused()
                }
            }
        }
        #expect(try triggers() == before)
        #expect(try connection.scalar("SELECT count(*) FROM albums", as: Int.self) == 0)
    }

    @Test func anImportLeavesTheSchemaAsItWasAndFiresTheUsersOwnTriggers() throws {
        let before = try triggers()
        let library = try Library.open(at: directory.file("library.sqlite"))
        let summary = try library.importText("title,artist\nOne,A\nTwo,B\nThree,C\n")
        #expect(summary.inserted == 3)
        #expect(try triggers() == before)
        #expect(try connection.scalar("SELECT n FROM my_inserts", as: Int.self) == 3)
        // The change log's trigger is back: a later single add is logged row by row.
        try library.albums.append(.sample("Four"))
        #expect(try connection.scalar(
            "SELECT count(*) FROM change_log WHERE operation = 'insert' AND last_row_id IS NULL", as: Int.self) == 1)
    }
}
