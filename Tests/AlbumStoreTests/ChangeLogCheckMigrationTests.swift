import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// Migration 0011 rebuilds the change log with its CHECK on `operation` written as comparisons
/// (an IN list of three constants made SQLite build a temporary b-tree for every entry written).
struct ChangeLogCheckMigrationTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    @Test func aLibraryOfTheSchemaBeforeKeepsItsLogItsRuleAndItsObservers() throws {
        let url = directory.file("library.sqlite")
        let before = Migrator(migrations: Array(Migration.embedded.prefix { $0.version < 11 }))
        let entries: [[SQLiteValue]]
        let cursor: Int64
        do {
            let old = try Library.open(at: url, migrator: before)
            try FormerLibrary.append([.sample("Low")], to: url)
            try old.session.setCurrentAlbum(at: 0)
            try old.albums.delete(at: 0)
            entries = try old.rows(of: "change_log")
            cursor = try old.read { try ChangeLog.latestCursor(in: $0) }
            #expect(entries.count >= 3)
        }

        let library = try Library.open(at: url)
        #expect(library.schemaVersion == Migration.embedded.last!.version)
        let connection = try Connection(path: url.path)
        #expect(try library.rows(of: "change_log") == entries, "every entry kept, seq and tx included")
        let sql = try #require(try connection.scalar("SELECT sql FROM sqlite_schema WHERE name = 'change_log'", as: String.self))
        #expect(!sql.contains(" IN ("))
        #expect(try connection.scalar("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'change_log_%'", as: Int.self) == 0)
        #expect(try connection.scalar("PRAGMA integrity_check", as: String.self) == "ok")

        // The same rule: an operation the log does not know is refused.
        #expect(throws: SQLiteError.self) {
            try connection.run(
                "INSERT INTO change_log (tx, table_name, operation, row_id, at) VALUES (1, 'albums', 'upsert', 1, 0)")
        }
        // The triggers of every observed table log into the new table, after the old entries.
        let album = try library.albums.append(.sample("Heroes"))
        try library.session.setCurrentAlbum(at: 0)
        let sets = try library.read { try ChangeLog.changeSets(after: cursor, in: $0) }
        #expect(sets.map(\.tables) == [
            ["albums": TableChanges(inserted: RowIDs([album.id]))],
            ["session_state": TableChanges(updated: RowIDs([1]))],
        ])
    }
}
