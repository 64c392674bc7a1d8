internal import AlbumSQLite

/// A row of `schema_migrations`: which migration was applied, with which SQL, and when.
///
/// The table belongs to the migrator, not to `Migrations/`, because it must exist before the
/// first migration runs.
struct AppliedMigration: Sendable {
    var version: Int
    var name: String
    var checksum: String

    static let tableSQL = """
        CREATE TABLE schema_migrations (
            version    INTEGER PRIMARY KEY,
            name       TEXT NOT NULL,
            checksum   TEXT NOT NULL,
            applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        )
        """

    static func exists(in connection: Connection) throws -> Bool {
        try connection.scalar(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'", as: Int.self) != nil
    }

    static func all(in connection: Connection) throws -> [AppliedMigration] {
        guard try exists(in: connection) else { return [] }
        return try connection.query("SELECT version, name, checksum FROM schema_migrations ORDER BY version") {
            AppliedMigration(version: try $0[0], name: try $0[1], checksum: try $0[2])
        }
    }

    static func latestVersion(in connection: Connection) throws -> Int {
        guard try exists(in: connection) else { return 0 }
        return try connection.scalar("SELECT max(version) FROM schema_migrations") ?? 0
    }

    static func record(_ migration: Migration, in connection: Connection) throws {
        try connection.run(
            "INSERT INTO schema_migrations (version, name, checksum) VALUES (?, ?, ?)",
            migration.version, migration.name, migration.checksum)
    }
}
