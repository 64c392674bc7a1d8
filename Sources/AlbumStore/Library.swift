import CSQLite
import Foundation
import SQLite

/// The one entry point an app uses: opens (and migrates) a library file and hands out its parts.
///
/// A `Library` owns its connections (see `Database` for the concurrency model) and can be
/// shared across threads and tasks. Callers never see SQL.
public final class Library: Sendable {
    /// The database file's path (`:memory:` for an in-memory library).
    public let path: String
    /// The schema version the file is at, the newest this binary knows.
    public let schemaVersion: Int
    let database: Database

    private init(path: String, migrator: Migrator) throws {
        var options = ConnectionOptions.default
        // WAL rewrites the file header: the migrator turns it on only once the file is known to be ours.
        options.journalMode = nil
        do {
            database = try Database(path: path, options: options)
            schemaVersion = try database.withWriter { try migrator.migrate($0) }
        } catch let error as SQLiteError where error.code == SQLITE_NOTADB {
            throw SchemaError.notAnAlbumStore(path: path, reason: "the file is not a SQLite database")
        }
        self.path = path
    }

    /// Opens the library at `url`, creating the file and its folders when missing and applying
    /// pending migrations.
    ///
    /// - Throws: `SchemaError` when the file is not an AlbumStore database, was migrated by a newer
    ///   version, or a migration fails; the file is left as it was.
    public static func open(at url: URL, migrator: Migrator = Migrator()) throws -> Library {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        return try Library(path: url.path, migrator: migrator)
    }

    /// A library in memory, gone when the value is released: for tests and previews.
    public static func inMemory(migrator: Migrator = Migrator()) throws -> Library {
        try Library(path: ":memory:", migrator: migrator)
    }

    /// Facts about the file, for `albumstore info`.
    public func info() throws -> LibraryInfo {
        let albumCount = try database.read { try $0.scalar("SELECT count(*) FROM albums", as: Int.self) ?? 0 }
        let size = { (path: String) in
            (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        }
        return LibraryInfo(
            path: path, schemaVersion: schemaVersion, sqliteVersion: Connection.sqliteVersion,
            albumCount: albumCount, fileSize: size(path), walSize: size(path + "-wal"))
    }
}
