/// Why a database file cannot be opened as an AlbumStore library. Nothing was changed.
public enum SchemaError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file is not a SQLite database, or is another application's database.
    case notAnAlbumStore(path: String, reason: String)
    /// The database was migrated by a newer version of AlbumStore.
    case newerThanKnown(path: String, version: Int, known: Int)
    /// An applied migration's SQL differs from this binary's copy.
    case migrationChanged(path: String, migration: String, applied: String, current: String)
    /// The library is at an older schema version, and opening it read-only cannot migrate it;
    /// opening it for writing once does.
    case needsUpgrade(path: String, version: Int, current: Int)
    /// A migration failed; the database stays at `version`.
    case migrationFailed(path: String, migration: String, version: Int, reason: String)
    /// A table described as observed cannot have change-log triggers (it has no integer row
    /// ids); its triggers were left as they were.
    case cannotObserve(path: String, table: String, reason: String)

    /// The refusal in one line, naming the file and what to do.
    public var description: String {
        switch self {
        case let .notAnAlbumStore(path, reason):
            "\(path): not an AlbumStore database (\(reason)); it was left untouched"
        case let .newerThanKnown(path, version, known):
            "\(path): schema version \(version) is newer than this version of AlbumStore knows (\(known)); a newer version opens it"
        case let .migrationChanged(path, migration, applied, current):
            "\(path): migration \(migration) changed after it was applied (checksum \(applied), now \(current)); restore the original file"
        case let .needsUpgrade(path, version, current):
            "\(path) is at schema version \(version), older than this version's \(current), and reading only cannot upgrade it; open it for writing once to upgrade it"
        case let .migrationFailed(path, migration, version, reason):
            "\(path): migration \(migration) failed: \(reason); the database stays at schema version \(version)"
        case let .cannotObserve(path, table, reason):
            "\(path): table \(table) cannot be observed: \(reason); its change-log triggers were left as they were"
        }
    }
}
