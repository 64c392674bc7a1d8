import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// Migration 0005 adds `match_key`: older files are filled in, and their history still undoes.
struct MatchKeyMigrationTests {
    let directory: TemporaryDirectory
    var url: URL { directory.file("library.sqlite") }

    init() throws { directory = try TemporaryDirectory() }

    /// A library at schema 4 holding one album and the history entry of an edit to it, recorded
    /// as the binary of schema 4 recorded it (a changeset of the 10 columns albums had then).
    private func schema4Library() throws -> Int64 {
        _ = try Library.open(at: url, migrator: Migrator(migrations: Array(Migration.embedded.prefix(4))))
        let connection = try Connection(path: url.path)
        try connection.run("INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (0, 'Low', 'David Bowie', 0, 0)")
        let id = connection.lastInsertRowID
        let recorder = try ChangeRecorder(connection: connection, tables: ["albums"])
        try connection.run("UPDATE albums SET title = 'Heroes', updated_at = 1 WHERE id = ?", id)
        try connection.run(
            "INSERT INTO history (description, changeset, created_at) VALUES ('edit “Heroes” by David Bowie', ?, 0)",
            try recorder.changeset().data)
        return id
    }

    @Test func olderRowsGetTheirKeysAndAnOlderCommandStillUndoesAndRedoes() throws {
        let id = try schema4Library()
        let logged = try Connection(path: url.path).scalar("SELECT count(*) FROM change_log", as: Int.self)
        let library = try Library.open(at: url)
        #expect(library.schemaVersion == Library.currentSchemaVersion)
        let key = try Connection(path: url.path).scalar("SELECT match_key FROM albums WHERE id = ?", id, as: Int64.self)
        #expect(key == MatchKey.of(artist: "David Bowie", title: "Heroes"))
        // The backfill is not a change to the albums: it logs nothing.
        #expect(try Connection(path: url.path).scalar("SELECT count(*) FROM change_log", as: Int.self) == logged)

        try library.undo()
        #expect(try library.albums.album(id: id)?.title == "Low")
        try library.redo()
        #expect(try library.albums.album(id: id)?.title == "Heroes")
    }

    @Test func checkReportsAlbumsAnotherProgramWroteWithoutTheirKey() throws {
        let library = try Library.open(at: url)
        try library.albums.append(AlbumDraft(title: "Low", artist: "David Bowie"))
        let shell = try Connection(path: url.path)
        try shell.run("INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (1, 'Heroes', 'David Bowie', 0, 0)")
        try shell.run("UPDATE albums SET title = 'Lodger' WHERE id = 1")
        let problems = try library.check()
        #expect(problems.map(\.description) == [
            "albums: 2 albums with a missing or stale match key (ids 1, 2), written by another program: an import does "
                + "not find them as duplicates; editing one through AlbumStore stores its key",
        ])
        try library.albums.update(id: 1) { $0.genre = "Rock" }
        #expect(try library.check().count == 1)
    }
}
