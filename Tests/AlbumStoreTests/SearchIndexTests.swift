import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// The full-text index (`album_search`, migration 0007) stays equal to the albums table whatever
/// writes it: the library's commands, imports, undo and redo, and the sqlite3 shell.
struct SearchIndexTests {
    let directory: TemporaryDirectory
    var url: URL { directory.file("library.sqlite") }

    init() throws { directory = try TemporaryDirectory() }

    /// Every (term, album, column, offset) the index holds, and those a rebuild from the table
    /// gives (built in a transaction rolled back, so the file is left as it was).
    static func indexAndRebuild(at path: String) throws -> (index: [[SQLiteValue]], rebuilt: [[SQLiteValue]]) {
        let connection = try Connection(path: path)
        try connection.execute("CREATE VIRTUAL TABLE temp.search_terms USING fts5vocab(main, album_search, instance)")
        let sql = "SELECT term, doc, col, offset FROM temp.search_terms ORDER BY doc, col, offset, term"
        let index = try connection.query(sql) { $0.values }
        try connection.execute("BEGIN")
        try connection.execute("INSERT INTO album_search (album_search) VALUES ('rebuild')")
        let rebuilt = try connection.query(sql) { $0.values }
        try connection.execute("ROLLBACK")
        return (index, rebuilt)
    }

    func expectIndexEqualsTable(_ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (index, rebuilt) = try Self.indexAndRebuild(at: url.path)
        #expect(index == rebuilt, comment, sourceLocation: sourceLocation)
        #expect(!rebuilt.isEmpty, "an index of something", sourceLocation: sourceLocation)
    }

    func titles(_ library: Library, _ text: String) throws -> [String] {
        try library.albums.albums(matching: AlbumQuery(parsing: text)).map(\.title)
    }

    @Test func libraryCommandsUndoAndRedoKeepTheIndexInStep() throws {
        let library = try Library.open(at: url)
        let low = try library.albums.append(AlbumDraft(title: "Low", artist: "David Bowie"))
        try library.albums.insert(AlbumDraft(title: "Heroes", artist: "David Bowie"), at: 0)
        try library.albums.append(contentsOf: AlbumDraft.classics)
        try expectIndexEqualsTable("after inserts")
        try library.albums.update(id: low.id) { $0.title = "Lodger"; $0.artist = "Bowie, David" }
        #expect(try titles(library, "lodger") == ["Lodger"])
        #expect(try titles(library, "low").isEmpty)
        try expectIndexEqualsTable("after an edit")
        try library.albums.update(id: low.id) { $0.genre = "Rock" }
        try library.albums.move(id: low.id, to: 0)
        try expectIndexEqualsTable("after a move and an edit of another field")
        let sea = try #require(try library.albums.albums(matching: AlbumQuery(parsing: "sea")).first)
        try library.albums.delete(id: sea.id)
        #expect(try titles(library, "sea").isEmpty)
        try expectIndexEqualsTable("after a delete")
        try library.undo()
        #expect(try titles(library, "sea") == ["Staring at the Sea"])
        try expectIndexEqualsTable("after undoing the delete")
        try library.undo()
        try library.undo()
        try library.undo()
        #expect(try titles(library, "low") == ["Low"])
        try expectIndexEqualsTable("after undoing the edits")
        try library.redo()
        try library.redo()
        #expect(try titles(library, "lodger") == ["Lodger"])
        try expectIndexEqualsTable("after redoing")
        try library.undo()  // the bulk append
        try library.undo()
        try expectIndexEqualsTable("after undoing the bulk append")
        try library.redo()
        try expectIndexEqualsTable("after redoing it")
    }

    @Test func importsKeepTheIndexInStep() throws {
        let library = try Library.open(at: url)
        try library.importText("""
            title,artist,genre,year
            Low,David Bowie,Rock,1977
            Homogenic,Björk,Electronic,1997
            Ace of Spades,Motörhead,Metal,1980
            """)
        try expectIndexEqualsTable("after an import into an empty library")
        #expect(try titles(library, "bjork") == ["Homogenic"])
        try library.importText("""
            title,artist,genre,year
            Heroes,David Bowie,Rock,1977
            Low,David Bowie,Pop,1977
            """, options: .with { $0.onConflict = .update })
        try expectIndexEqualsTable("after an import with an update")
        #expect(try titles(library, "heroes") == ["Heroes"])
        try library.undo()
        try expectIndexEqualsTable("after undoing it")
        #expect(try titles(library, "heroes").isEmpty)
        try library.redo()
        try expectIndexEqualsTable("after redoing it")
    }

    @Test func writesFromTheSQLiteShellKeepTheIndexInStep() throws {
        let library = try Library.open(at: url)
        try library.albums.append(contentsOf: AlbumDraft.classics)
        try SQLiteShell.run("""
            INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (99999999999, 'Blackstar', 'David Bowie', 0, 0);
            UPDATE albums SET title = 'Sun' WHERE title = 'Nothing Like The Sun';
            UPDATE albums SET year = 1990 WHERE artist = 'Madonna';
            DELETE FROM albums WHERE artist = 'No Doubt';
            """, on: url.path)
        try expectIndexEqualsTable("after the shell's writes")
        #expect(try titles(library, "blackstar") == ["Blackstar"])
        #expect(try titles(library, "sun") == ["Sun"])
        #expect(try titles(library, "doubt").isEmpty)
    }

    @Test func replaceThroughALibraryConnectionForgetsTheReplacedRow() throws {
        let library = try Library.open(at: url)
        let album = try library.albums.append(AlbumDraft(title: "Low", artist: "David Bowie"))
        // Library connections turn recursive_triggers on, so the replaced row's DELETE trigger fires.
        let connection = try Connection(path: url.path)
        try connection.run(
            "INSERT OR REPLACE INTO albums (id, position, title, artist, created_at, updated_at) VALUES (?, 0, 'Heroes', 'Bowie', 0, 0)",
            album.id)
        try expectIndexEqualsTable("after INSERT OR REPLACE")
        #expect(try titles(library, "low").isEmpty)
    }

    @Test func theMigrationIndexesAlbumsAlreadyThere() throws {
        // A library at schema 6 (before the index) holding albums, as an older binary left it.
        let older = Migrator(migrations: Array(Migration.embedded.prefix { $0.version < 7 }))
        do {
            _ = try Library.open(at: url, migrator: older)
            try FormerLibrary.append(AlbumDraft.classics, to: url)
        }
        let library = try Library.open(at: url)
        #expect(try titles(library, "madonna") == ["American Pie"])
        try expectIndexEqualsTable("after migrating")
    }

    /// Migration 0010: the index keeps no per-album sizes (one page fewer written per insert
    /// and delete), on a new library and on one migrated from schema 9 with albums in it, and
    /// still equals the table, also after its small segments were merged.
    @Test func theIndexKeepsNoSizesOnNewAndMigratedLibraries() throws {
        func expectPageSavingOptions(_ comment: Comment) throws {
            let connection = try Connection(path: url.path)
            #expect(try connection.scalar(
                "SELECT count(*) FROM sqlite_schema WHERE name = 'album_search_docsize'", as: Int.self) == 0, comment)
            let sql = try connection.scalar("SELECT sql FROM sqlite_schema WHERE name = 'album_search'", as: String.self)
            #expect(sql?.contains("columnsize = 0") == true, comment)
            try connection.execute("INSERT INTO album_search (album_search) VALUES ('integrity-check')")
        }
        let older = Migrator(migrations: Array(Migration.embedded.prefix { $0.version < 10 }))
        do {
            _ = try Library.open(at: url, migrator: older)
            try FormerLibrary.append(AlbumDraft.classics, to: url)
            let docsize = try Connection(path: url.path).scalar(
                "SELECT count(*) FROM album_search_docsize", as: Int.self)
            #expect(docsize == AlbumDraft.classics.count, "schema 9 kept a size row per album")
        }
        let library = try Library.open(at: url)
        try expectPageSavingOptions("migrated from schema 9")
        try expectIndexEqualsTable("after migrating")
        #expect(try titles(library, "madonna") == ["American Pie"])

        // Single commands, each its own transaction and its own small segment: the index merges
        // them as it goes, and still equals the table.
        for number in 0..<40 {
            let album = try library.albums.insert(AlbumDraft(title: "Merge \(number)", artist: "Segment"), at: 1)
            if number.isMultiple(of: 3) { try library.albums.delete(id: album.id) }
        }
        for _ in 0..<10 { try library.undo() }
        try expectPageSavingOptions("after merges")
        try expectIndexEqualsTable("after 40 inserts, 14 deletes and 10 undos")
        let segmentAlbums = try Connection(path: url.path).scalar(
            "SELECT count(*) FROM albums WHERE artist = 'Segment'", as: Int.self)
        #expect(try titles(library, "segment").count == segmentAlbums)
        #expect(segmentAlbums == 22, "40 inserts, 14 deletes, then 7 inserts and 3 deletes undone")

        let fresh = directory.file("new.sqlite")
        _ = try Library.open(at: fresh)
        let created = try Connection(path: fresh.path)
        #expect(try created.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'album_search_docsize'", as: Int.self) == 0)
    }

    @Test func bulkInsertsCatchTheIndexUpByInsertOrRebuildAndPutTheTriggerBack() throws {
        let library = try Library.open(at: url)
        let triggers = { try Connection(path: url.path).query(
            "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY name") { $0.values } }
        let before = try triggers()
        // Into an empty library: the new rows are the whole table, a rebuild.
        try library.albums.append(contentsOf: (0..<200).map { AlbumDraft(title: "Title \($0)", artist: "Artist \($0 % 7)") })
        try expectIndexEqualsTable("after a bulk append into an empty library")
        // A few more into it: inserted by ranges.
        try library.albums.append(contentsOf: [AlbumDraft(title: "Blackstar", artist: "David Bowie")])
        try library.importText("title,artist\nHomogenic,Björk\nLow,David Bowie\n")
        try expectIndexEqualsTable("after a small bulk append and a small import")
        #expect(try titles(library, "bjork") == ["Homogenic"])
        #expect(try titles(library, "bowie") == ["Blackstar", "Low"])
        #expect(try triggers() == before)
    }

    @Test func aLargeBulkInsertGathersThePlannerStatistics() throws {
        let library = try Library.open(at: url)
        let statistics = { try Connection(path: url.path).scalar(
            "SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_stat1'", as: Int.self) }
        #expect(try statistics() == 0)
        try library.albums.append(contentsOf: (0..<2000).map { AlbumDraft(title: "Title \($0)", artist: "Artist \($0 % 7)") })
        #expect(try statistics() == 1)
        let rows = try Connection(path: url.path).scalar("SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'albums'", as: Int.self)
        #expect((rows ?? 0) > 0)
    }
}
