import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// Opening a library installs the change-log triggers the table descriptions call for, and
/// only when the file's differ.
struct ChangeLogTriggerInstallerTests {
    let directory: TemporaryDirectory
    var url: URL { directory.file("library.sqlite") }

    init() throws { directory = try TemporaryDirectory() }

    /// A table of the tests' own: observed, no undo.
    static let notes = TableDescription(name: "notes", undo: .none, isObserved: true, order: nil)
    static let notesMigration = Migration(
        version: 1000, name: "notes", sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);")
    static let withNotes = Migrator(migrations: Migration.embedded + [notesMigration], tables: TableDescription.all + [notes])

    @Test func aNewLibraryHasTheGeneratedTriggersOfEveryObservedTable() throws {
        _ = try Library.open(at: url)

        #expect(try logTriggers(in: url.path) == everyObservedTablesTriggers())
        let connection = try Connection(path: url.path)
        #expect(try Migrator().triggers.plan(in: connection).isEmpty)
        // The row id the installer found for albums is its INTEGER PRIMARY KEY.
        #expect(try ChangeLogSchema(observed: ["albums"], in: connection).tables["albums"]?.integerPrimaryKey == "id")
    }

    @Test func everyDescribedTableIsCreatedByTheMigrations() throws {
        // The installer skips a described table that does not exist: this catches a
        // description whose migration was forgotten.
        _ = try Library.open(at: url)
        let connection = try Connection(path: url.path)
        for table in TableDescription.all {
            #expect(try connection.scalar(
                "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", table.name, as: Int.self) == 1,
                "no migration creates \(table.name)")
        }
    }

    @Test func aLibraryOfTheFormerSchemaIsUpgradedAndKeepsLoggingChanges() throws {
        let former = try FormerLibrary.make(at: url)
        // Written as the former binary wrote it: today's library writes the later columns too.
        let shell = try Connection(path: url.path)
        try shell.run("INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (0, 'Low', 'David Bowie', 0, 0)")
        let low = (id: shell.lastInsertRowID, title: "Low")
        #expect(former.schemaVersion == 3)
        #expect(try logTriggers(in: url.path).values.allSatisfy { $0.contains("NEW.id,") || $0.contains("OLD.id,") })

        let library = try Library.open(at: url)

        #expect(library.schemaVersion == Migration.embedded.last?.version)
        #expect(try logTriggers(in: url.path) == everyObservedTablesTriggers())
        var changes = library.changes.makeAsyncIterator()
        let heroes = try library.albums.insert(.sample("Heroes"), at: 0)
        try library.albums.delete(id: low.id)
        // Delivered at each commit: drain() takes them without waiting (a missing set fails
        // here instead of hanging the test).
        #expect(changes.drain().map(\.albums) == [
            TableChanges(inserted: RowIDs([heroes.id])), TableChanges(deleted: RowIDs([low.id])),
        ])
        // What the former triggers logged is still there, before what the new ones logged.
        var feed = library.changeFeed(since: 0).makeAsyncIterator()
        #expect(try feed.backlog().map(\.albums) == [
            TableChanges(inserted: RowIDs([low.id])), TableChanges(inserted: RowIDs([heroes.id])),
            TableChanges(deleted: RowIDs([low.id])),
        ])
    }

    @Test func aTriggerDroppedOrEditedInTheShellIsRepairedAtTheNextOpen() throws {
        _ = try Library.open(at: url)
        try SQLiteShell.run("""
            DROP TRIGGER albums_log_update;
            DROP TRIGGER albums_log_delete;
            CREATE TRIGGER albums_log_delete AFTER DELETE ON albums BEGIN SELECT 1; END;
            """, on: url.path)
        let watcher = try Connection(path: url.path)
        let before = try watcher.dataVersion()

        let library = try Library.open(at: url)

        #expect(try watcher.dataVersion() != before)
        #expect(try logTriggers(in: url.path) == everyObservedTablesTriggers())
        let album = try library.albums.append(.sample("Low"))
        try library.albums.update(id: album.id) { $0.year = 1977 }
        try library.albums.delete(id: album.id)
        #expect(try watcher.query("SELECT operation || ' ' || row_id FROM change_log ORDER BY seq") {
            try $0[0, as: String.self]
        } == ["insert \(album.id)", "update \(album.id)", "delete \(album.id)"])
    }

    @Test func openingAnUpToDateLibraryWritesNothing() throws {
        _ = try Library.open(at: url)
        let watcher = try Connection(path: url.path)
        let version = try watcher.dataVersion()
        let wal = walSize()
        // Holding the write lock: an open that began a write transaction would wait for it and
        // then fail with SQLITE_BUSY.
        try watcher.execute("BEGIN IMMEDIATE")

        let library = try Library.open(at: url)

        try watcher.execute("COMMIT")
        #expect(library.schemaVersion == Migration.embedded.last?.version)
        // data_version moves when another connection commits; the WAL grows with any write.
        #expect(try watcher.dataVersion() == version)
        #expect(walSize() == wal)
    }

    @Test func aDescribedTableOfItsOwnGetsTriggersAndItsChangesReachSubscribers() throws {
        let library = try Library.open(at: url, migrator: Self.withNotes)
        #expect(try logTriggers(in: url.path)
                == everyObservedTablesTriggers().merging(generatedTriggers("notes", numbersEachEntry: Self.notes.isNavigation)) { $1 })
        var changes = library.changes.makeAsyncIterator()

        let id = try library.perform { command in
            try command.connection.run("INSERT INTO notes (body) VALUES ('first')")
            return (command.connection.lastInsertRowID, "add a note")
        }
        _ = try library.perform { command in
            try command.connection.run("UPDATE notes SET body = 'edited' WHERE id = ?", id)
            return (id, "edit a note")
        }
        _ = try library.perform { command in
            try command.connection.run("DELETE FROM notes WHERE id = ?", id)
            return (id, "delete a note")
        }

        let expected = [TableChanges(inserted: RowIDs([id])), TableChanges(updated: RowIDs([id])), TableChanges(deleted: RowIDs([id]))]
        #expect(changes.drain().map(\.tables) == expected.map { ["notes": $0] })
        var feed = library.changeFeed(since: 0).makeAsyncIterator()
        #expect(try feed.backlog().map(\.tables) == expected.map { ["notes": $0] })
    }

    @Test func aTableNoLongerObservedLosesItsTriggersAndOnlyThem() throws {
        _ = try Library.open(at: url, migrator: Self.withNotes)
        // Triggers of a migration or a user, even named like ours, are not ours to drop.
        try Connection(path: url.path).execute("""
            CREATE TRIGGER notes_log_audit AFTER INSERT ON notes BEGIN SELECT 1; END;
            CREATE TRIGGER notes_touch AFTER UPDATE ON notes BEGIN SELECT 1; END;
            """)

        _ = try Library.open(at: url, migrator: Migrator(migrations: Migration.embedded + [Self.notesMigration]))

        let triggers = try Connection(path: url.path).query("SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name") {
            try $0[0, as: String.self]
        }
        #expect(triggers == (everyObservedTablesTriggers().keys + ["album_search_delete", "album_search_insert", "album_search_update",
                                                                   "albums_delete_cover", "albums_delete_folder", "albums_id_floor", "albums_order_delete", "albums_order_insert",
                                                                   "albums_order_update", "notes_log_audit", "notes_touch"]).sorted())
        #expect(try logTriggers(in: url.path).filter { $0.key.hasPrefix("albums") } == generatedTriggers("albums"))
    }

    @Test func aRowInsertedByTheSQLiteShellIsLogged() throws {
        let library = try Library.open(at: url)
        var feed = library.changeFeed().makeAsyncIterator()
        #expect(try feed.backlog().isEmpty)

        try SQLiteShell.run(ChangeLogTriggersTests.insertAlbum, on: url.path)

        let id = try #require(try library.albums.page().first?.album.id)
        #expect(try feed.backlog().map(\.albums) == [TableChanges(inserted: RowIDs([id]))])
    }

    @Test func aLibraryWithoutAChangeLogGetsNoTriggers() throws {
        // A test's own schema: an albums table, but no change log to write to.
        let albums = Migration(version: 1, name: "albums", sql: "CREATE TABLE albums (id INTEGER PRIMARY KEY, title TEXT);")
        _ = try Library.open(at: url, migrator: Migrator(migrations: [albums]))

        #expect(try Connection(path: url.path).scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'trigger'", as: Int.self) == 0)
    }

    private func walSize() -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path + "-wal")[.size] as? Int) ?? 0
    }
}

/// The triggers `ChangeLogTriggers` generates for every observed table `TableDescription.all`
/// describes (each keyed by an INTEGER PRIMARY KEY `id`), by name.
func everyObservedTablesTriggers() -> [String: String] {
    TableDescription.all.filter(\.isObserved).reduce(into: [:]) { triggers, table in
        // `covers` is keyed by the album's id (`album_id`), the others by `id`.
        triggers.merge(generatedTriggers(table.name, rowIDColumn: table.name == "covers" ? "album_id" : "id",
                                         numbersEachEntry: table.isNavigation)) { $1 }
    }
}
