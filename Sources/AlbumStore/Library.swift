import CSQLite
import Foundation
import SQLite
import Synchronization

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
    let history: UndoHistory
    /// Index -> position lookups; only touched while holding the writer.
    let order = Mutex(OrderIndex())
    /// The tables whose changes commands record for undo.
    static let undoableTables = ["albums"]

    /// The albums, an ordered list.
    public var albums: AlbumRepository { AlbumRepository(library: self) }

    private init(path: String, migrator: Migrator, historyLimit: Int) throws {
        precondition(historyLimit > 0, "the history keeps at least one command")
        history = UndoHistory(limit: historyLimit)
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
    /// - Parameter historyLimit: How many commands undo can go back (default 100).
    public static func open(at url: URL, migrator: Migrator = Migrator(), historyLimit: Int = 100) throws -> Library {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        return try Library(path: url.path, migrator: migrator, historyLimit: historyLimit)
    }

    /// A library in memory, gone when the value is released: for tests and previews.
    public static func inMemory(migrator: Migrator = Migrator(), historyLimit: Int = 100) throws -> Library {
        try Library(path: ":memory:", migrator: migrator, historyLimit: historyLimit)
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

    // MARK: Commands and undo

    /// Undoes the newest command, also one made by an earlier process.
    /// - Throws: `HistoryError.nothingToUndo`, or `.conflict` when the rows changed behind the history's back.
    @discardableResult
    public func undo() throws -> HistoryEntry {
        try write { try history.undo(in: $0) }
    }

    /// Does the most recently undone command again.
    @discardableResult
    public func redo() throws -> HistoryEntry {
        try write { try history.redo(in: $0) }
    }

    /// The commands that can be undone (and, marked undone, redone), oldest first.
    public func historyEntries() throws -> [HistoryEntry] {
        try database.read { try history.entries(in: $0) }
    }

    /// Runs one command in a write transaction and records its changes as one undoable entry.
    /// `body` returns its result and a short description for the history.
    func perform<T: Sendable>(_ body: (Connection) throws -> (T, String)) throws -> T {
        try write { connection in
            let recorder = try ChangeRecorder(connection: connection, tables: Self.undoableTables)
            let (result, description) = try body(connection)
            let changeset = try recorder.changeset()
            if !changeset.isEmpty { try history.record(changeset, description: description, in: connection) }
            return (result, changeset)
        }
    }

    /// Runs `body` in a write transaction and keeps the order index in step with the changes it
    /// reports; any failure throws the index away, since it may have seen rolled-back work.
    private func write<T: Sendable>(_ body: (Connection) throws -> (T, Changeset)) throws -> T {
        do {
            return try database.write { connection in
                let (result, changeset) = try body(connection)
                try order.withLock { try $0.apply(changeset) }
                return result
            }
        } catch {
            order.withLock { $0.invalidate() }
            throw error
        }
    }

    /// Runs `body` with the writer and a current order index, in a read transaction.
    func withOrder<T: Sendable>(_ body: (Connection, OrderIndex) throws -> T) throws -> T {
        try database.withWriter { connection in
            try connection.read { try body(connection, try orderIndex(connection)) }
        }
    }

    /// The order index, made current for `connection` (the writer, inside a transaction).
    func orderIndex(_ connection: Connection) throws -> OrderIndex {
        try order.withLock { index in
            try index.prepare(connection)
            return index
        }
    }
}
