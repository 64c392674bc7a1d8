import Foundation
import AlbumSQLite
@testable import AlbumStore

/// A library file as the binary before generated triggers left it: migrations 1–3 only, with
/// the change-log triggers hand-written in 0003.
enum FormerLibrary {
    static let migrations = Array(Migration.embedded.prefix(3))

    /// 0003 no longer reads as it did (it must not: migrations are never edited).
    struct Changed: Error {}

    /// Makes the file and returns the library, still open on it. Any later open installs the
    /// generated triggers, so write through this one to write as the former binary did.
    static func make(at url: URL) throws -> Library {
        let library = try Library.open(at: url, migrator: Migrator(migrations: migrations))
        // Opening installed the generated triggers, whatever the schema version: put 0003's back.
        let sql = migrations[2].sql
        guard let start = sql.range(of: "CREATE TRIGGER albums_log_insert") else {
            throw Changed()
        }
        try Connection(path: url.path).execute("""
            DROP TRIGGER albums_log_insert; DROP TRIGGER albums_log_update; DROP TRIGGER albums_log_delete;
            \(sql[start.lowerBound...])
            """)
        return library
    }
}

extension FormerLibrary {
    /// Appends `drafts` to the library file at `url` with plain SQL, as an older binary did:
    /// today's commands need the tables of today's schema (`album_id_floor`). Schema 5 or later
    /// (the match key).
    static func append(_ drafts: [AlbumDraft], to url: URL) throws {
        let connection = try Connection(path: url.path)
        try connection.transaction {
            var position = try connection.scalar("SELECT max(position) FROM albums", as: Int64.self) ?? -PositionKey.gap
            for draft in drafts {
                position += PositionKey.gap
                try connection.run(
                    "INSERT INTO albums (position, title, artist, genre, year, created_at, updated_at, match_key) VALUES (?, ?, ?, ?, ?, 0, 0, ?)",
                    position, draft.title, draft.artist, draft.genre, draft.year, MatchKey.of(artist: draft.artist, title: draft.title))
            }
        }
    }
}
