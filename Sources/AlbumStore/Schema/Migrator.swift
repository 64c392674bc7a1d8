import FoundationEssentials
internal import AlbumSQLite

/// Brings a database up to the schema of `Migrations/`, refusing files it must not touch.
///
/// Before writing anything it checks, reading only, that the file is empty or ours (marked by
/// `PRAGMA application_id`), that no applied migration is unknown (newer schema) or changed
/// (checksum). Each pending migration then runs in its own transaction together with its record
/// in `schema_migrations` and `PRAGMA user_version`, so a failure leaves the previous version.
///
/// Last, it installs the change-log triggers of the observed tables, which are derived from the
/// table descriptions rather than written in `Migrations/` (see `ChangeLogTriggers`): missing,
/// outdated or edited ones are (re)created, those of tables no longer observed dropped. When all
/// are as generated, as on every open but the first after an upgrade, it writes nothing.
struct Migrator: Sendable {
    /// 'AlbS': marks a SQLite file as an AlbumStore library.
    static let applicationID = LibraryFile.applicationID

    let migrations: [Migration]
    /// Installs the change-log triggers of the observed tables after migrating.
    let triggers: ChangeLogTriggerInstaller

    /// - Parameter tables: The tables the change log, observation and undo serve; tests add
    ///   their own to tables their own migrations create.
    init(migrations: [Migration] = Migration.embedded, tables: [TableDescription] = TableDescription.all) {
        precondition(migrations.map(\.version) == migrations.map(\.version).sorted(), "migrations out of order")
        self.migrations = migrations
        triggers = ChangeLogTriggerInstaller(tables: tables)
    }

    /// The newest schema version this migrator knows.
    var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Checks the file, then applies pending migrations. Returns the schema version reached.
    ///
    /// The connection should not have switched to WAL yet: that rewrites the header of a file
    /// that may not be ours. `enableWAL` is called once the file is known to be ours.
    @discardableResult
    func migrate(_ connection: Connection, enableWAL: Bool = true) throws -> Int {
        let applied = try inspect(connection)
        if enableWAL && !connection.isInMemory { try connection.setJournalMode(.wal) }
        var version = applied.last?.version ?? 0
        for migration in migrations where migration.version > version {
            try apply(migration, to: connection, from: version)
            version = migration.version
        }
        // After an upgrade the last migration has installed them already; this repairs a trigger
        // dropped or edited since (say in the sqlite3 shell) and costs one read when all is well.
        try triggers.install(in: connection)
        return version
    }

    /// Checks, reading only, that the file is a library at the latest schema, for a library
    /// opened read-only: it writes nothing, so it neither migrates nor installs triggers (an
    /// outdated trigger only matters to writers, which reinstall it). Returns the version.
    /// - Throws: `SchemaError.needsUpgrade` for an older library; `StorageError.emptyFile` for
    ///   a SQLite file with nothing in it.
    func verify(_ connection: Connection, path: String) throws -> Int {
        let applied = try inspect(connection, path: path)
        guard let version = applied.last?.version else { throw StorageError(.emptyFile, path: path) }
        if version < latestVersion { throw SchemaError.needsUpgrade(path: path, version: version, current: latestVersion) }
        return version
    }

    /// The migrations recorded in the file, after checking it is ours and compatible.
    /// - Parameter path: The file's path for messages (the connection's may be a `file:` URI).
    func inspect(_ connection: Connection, path: String? = nil) throws -> [AppliedMigration] {
        let path = path ?? connection.path
        let applicationID = try connection.scalar("PRAGMA application_id", as: Int32.self) ?? 0
        let objects = try connection.scalar("SELECT count(*) FROM sqlite_schema", as: Int.self) ?? 0
        if applicationID == 0 && objects == 0 { return [] }
        guard applicationID == Self.applicationID else {
            let reason = applicationID == 0 ? "it holds \(objects) schema objects but no AlbumStore mark"
                : "application_id is \(applicationID), not AlbumStore's \(Self.applicationID)"
            throw SchemaError.notAnAlbumStore(path: path, reason: reason)
        }
        return try check(try AppliedMigration.all(in: connection), path: path)
    }

    private func check(_ applied: [AppliedMigration], path: String) throws -> [AppliedMigration] {
        for record in applied {
            // A search, not a dictionary: a handful of migrations, and a first `[Int: Migration]`
            // costs the Swift runtime a scan of the binary's conformances at every open.
            guard let migration = migrations.first(where: { $0.version == record.version }) else {
                throw SchemaError.newerThanKnown(path: path, version: applied.last?.version ?? record.version, known: latestVersion)
            }
            guard migration.checksum == record.checksum else {
                throw SchemaError.migrationChanged(
                    path: path, migration: migration.fileName, applied: record.checksum, current: migration.checksum)
            }
        }
        return applied
    }

    private func apply(_ migration: Migration, to connection: Connection, from version: Int) throws {
        do {
            try connection.transaction(.immediate) {
                // Another process may have migrated meanwhile: re-read under the write lock.
                if try AppliedMigration.latestVersion(in: connection) >= migration.version { return }
                if version == 0 {
                    try connection.execute("PRAGMA application_id = \(Self.applicationID)")
                    try connection.execute(AppliedMigration.tableSQL)
                }
                try connection.execute(migration.sql)
                try AppliedMigration.record(migration, in: connection)
                try connection.execute("PRAGMA user_version = \(migration.version)")
                // The triggers commit with the last migration: a migration may drop or rebuild an
                // observed table (and its triggers with it), and another writer's change committed
                // before they were back would never be logged.
                if migration.version == latestVersion { try triggers.install(in: connection) }
            }
        } catch let error as SQLiteError where Self.isAboutTheFile(error) {
            // Not the migration's fault (another writer, a full disk...): the caller says so plainly.
            throw error
        } catch let SchemaError.cannotObserve(_, table, reason) {
            throw SchemaError.migrationFailed(
                path: connection.path, migration: migration.fileName, version: version,
                reason: "table \(table) cannot be observed: \(reason)")
        } catch {
            let reason = (error as? SQLiteError)?.message ?? "\(error)"
            throw SchemaError.migrationFailed(
                path: connection.path, migration: migration.fileName, version: version, reason: reason)
        }
    }

    /// Whether `error` is about the file or the machine (busy, read-only, damaged, full, I/O)
    /// rather than the migration's SQL.
    private static func isAboutTheFile(_ error: SQLiteError) -> Bool {
        switch StorageError.reason(forCode: error.extendedCode) {
        case .busy, .readOnly, .corrupt, .full, .io, .permissionDenied: true
        default: false
        }
    }
}
