import CSQLite
import Foundation
import AlbumSQLite
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
    let changeLog: ChangeLog
    let hub = ChangeHub()
    /// The change log position up to which change sets have gone to subscribers.
    let delivered = Mutex<Int64>(0)
    /// Commits since opening; the change log is pruned every `pruneInterval` of them.
    let commits = Mutex(0)
    static let pruneInterval = 64

    /// The albums, an ordered list.
    public var albums: AlbumRepository { AlbumRepository(library: self) }

    private init(path: String, migrator: Migrator, historyLimit: Int, retention: ChangeLog.Retention) throws {
        precondition(historyLimit > 0, "the history keeps at least one command")
        history = UndoHistory(limit: historyLimit)
        changeLog = ChangeLog(retention: retention)
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
        try database.withWriter { connection in
            let latest = try ChangeLog.latestCursor(in: connection)
            delivered.withLock { $0 = latest }
        }
    }

    /// Opens the library at `url`, creating the file and its folders when missing and applying
    /// pending migrations.
    ///
    /// - Throws: `SchemaError` when the file is not an AlbumStore database, was migrated by a newer
    ///   version, or a migration fails; the file is left as it was.
    /// - Parameters:
    ///   - historyLimit: How many commands undo can go back (default 100).
    ///   - changeLogRetention: How much of the change log other processes can catch up on.
    public static func open(
        at url: URL, migrator: Migrator = Migrator(), historyLimit: Int = 100,
        changeLogRetention: ChangeLog.Retention = ChangeLog.Retention()
    ) throws -> Library {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        return try Library(path: url.path, migrator: migrator, historyLimit: historyLimit, retention: changeLogRetention)
    }

    /// A library in memory, gone when the value is released: for tests and previews.
    public static func inMemory(migrator: Migrator = Migrator(), historyLimit: Int = 100) throws -> Library {
        try Library(path: ":memory:", migrator: migrator, historyLimit: historyLimit, retention: ChangeLog.Retention())
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

    /// Runs a bulk append (see `AlbumRepository.append(contentsOf:)`): `body` returns the new ids,
    /// which the history keeps instead of a changeset.
    func performAppend(_ body: (Connection) throws -> (RowIDs, String)) throws -> RowIDs {
        try write { connection in
            let (ids, description) = try body(connection)
            if !ids.isEmpty { try history.recordAppend(ids, description: description, in: connection) }
            return (ids, nil)
        }
    }

    /// Runs `body` in a write transaction under a new transaction number, keeps the order index in
    /// step with the changes it reports (`nil`: too many to follow, rebuild it), and after the
    /// commit hands the change log's new entries to subscribers. Any failure throws the order
    /// index away: it may have seen rolled-back work.
    private func write<T: Sendable>(_ body: (Connection) throws -> (T, Changeset?)) throws -> T {
        do {
            return try database.withWriter { connection in
                let result = try connection.transaction(.immediate) {
                    try ChangeLog.beginTransaction(in: connection)
                    try order.withLock { try $0.refresh(connection) }
                    let (result, changeset) = try body(connection)
                    let latest = try order.withLock { index in
                        if let changeset { try index.apply(changeset) } else { index.invalidate() }
                        return try index.advance(connection)
                    }
                    let count = commits.withLock { $0 += 1; return $0 }
                    if count % Self.pruneInterval == 1 { try changeLog.prune(in: connection) }
                    return (result, latest)
                }
                publishCommitted(connection, latest: result.1)
                return result.0
            }
        } catch {
            order.withLock { $0.invalidate() }
            throw error
        }
    }

    /// Sends subscribers the change sets committed since the last delivery (ours, and any other
    /// process's that landed meanwhile). Called with the writer, after a commit.
    private func publishCommitted(_ connection: Connection, latest: Int64) {
        let cursor = delivered.withLock { $0 }
        guard hub.hasSubscribers else {
            // Nobody listens: move on, so a later subscriber starts from now.
            delivered.withLock { $0 = latest }
            return
        }
        do {
            let sets = try ChangeLog.changeSets(after: cursor, in: connection)
            if let last = sets.last { delivered.withLock { $0 = last.cursor } }
            hub.publish(sets)
        } catch {
            // The log was pruned past what subscribers have seen: tell them to reload.
            let latest = (try? ChangeLog.latestCursor(in: connection)) ?? cursor
            delivered.withLock { $0 = latest }
            hub.publish([ChangeSet(cursor: latest, transaction: 0, date: Date(), tables: [:], isOverflow: true)])
        }
    }

    // MARK: Observation

    /// A new subscription to the change sets of every transaction committed through this library
    /// from now on (see `ChangeStream` for buffering and ending). Each access subscribes anew.
    public var changes: ChangeStream { changes(bufferSize: 1024) }

    /// A subscription whose buffer holds up to `bufferSize` change sets before it overflows.
    public func changes(bufferSize: Int) -> ChangeStream { hub.subscribe(capacity: bufferSize) }

    /// Computes `value` now and again after every committed change to `tables`, like GRDB's
    /// ValueObservation: changes that arrive while a value is computed are coalesced into one
    /// recomputation, and a slow consumer sees only the newest value. Ends when the consuming
    /// task is cancelled or `value` throws.
    public func observe<T: Sendable>(
        _ tables: Set<String> = ["albums"], _ value: @escaping @Sendable (Library) throws -> T
    ) -> AsyncThrowingStream<T, Error> {
        let changes = changes
        return AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let task = Task {
                do {
                    continuation.yield(try value(self))
                    var iterator = changes.makeAsyncIterator()
                    while let first = await iterator.next() {
                        let pending = [first] + iterator.drain()
                        guard pending.contains(where: { set in tables.contains(where: set.touches) }) else { continue }
                        continuation.yield(try value(self))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Prunes the change log to its retention bounds now (it is also pruned every
    /// `pruneInterval` commits).
    public func pruneChangeLog() throws {
        try database.write { try changeLog.prune(in: $0) }
    }

    /// A feed of the change sets committed by any process to this library's file, after `cursor`
    /// (`nil`: from now on).
    public func changeFeed(since cursor: Int64? = nil, pollInterval: Duration = .milliseconds(10)) -> ChangeFeed {
        ChangeFeed(path: path, since: cursor, pollInterval: pollInterval)
    }

    /// Runs `body` with the writer and a current order index, in a read transaction.
    func withOrder<T: Sendable>(_ body: (Connection, OrderIndex) throws -> T) throws -> T {
        try database.withWriter { connection in
            try connection.read { try body(connection, try orderIndex(connection, refresh: true)) }
        }
    }

    /// The order index, current and built for `connection` (the writer, in a transaction).
    /// Inside a command `write` has refreshed it already.
    func orderIndex(_ connection: Connection, refresh: Bool = false) throws -> OrderIndex {
        try order.withLock { index in
            try index.prepare(connection, refresh: refresh)
            return index
        }
    }
}
