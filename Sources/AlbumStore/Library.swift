import Dispatch
import FoundationEssentials
import Synchronization
internal import AlbumSQLite

/// The one entry point an app uses: opens (and migrates) a library file and hands out its parts.
///
/// A `Library` can be shared across threads and tasks. It holds one writer connection and a
/// few reader connections: reads never wait for a write under way, and every read has an
/// `async` twin that does not block Swift's cooperative threads and stops, throwing
/// `CancellationError`, when its task is cancelled. No wait for a lock, held in this process or
/// another, lasts longer than `busyTimeout`. Library methods may be called from inside closures
/// the library runs (`albums.update(id:)`'s edit, an `observe` value): reads work there; a
/// command from inside a closure that holds the writer or a read (`forEach`) throws
/// `StorageError` (reason `.misuse`) at once instead of waiting for itself or committing unseen.
/// To read and change together, use `write(_:_:)`. `close()` (or the last release) frees the
/// file. Callers never see SQL, and errors of the storage layer reach them as `StorageError`.
public final class Library: Sendable {
    /// The database file's path (`:memory:` for an in-memory library).
    public let path: String
    /// The schema version the file is at, the newest this binary knows.
    public let schemaVersion: Int
    /// What this library may do to its file: a `.readOnly` library refuses every command.
    public let access: Access
    /// How long a call waits for a lock: another process's write lock, or inside this process
    /// the writer another thread holds, or a reader when every one is busy.
    public let busyTimeout: Duration
    let migrator: Migrator
    let database: Database
    let history: UndoHistory
    /// The SQL of recent queries (`AlbumQuery`).
    let queries = QueryCache()
    /// Whether the file keeps order statistics for the albums (`false` for a library made with
    /// a test's own migrations, which has no albums).
    let hasOrderStatistics: Bool
    let changeLog: ChangeLog
    /// The order statistics as the writer last read them, for navigation writes.
    let orderBlocks = OrderBlocksCache()
    /// The `write(_:)` under way, seen by the thread running it.
    let openTransaction = OpenTransaction()
    /// The database file as `OpenLibraries` knows it (`nil` in memory).
    private let openFile: String?
    /// The subscriptions of `changes` and `observe`.
    let hub: ChangeHub
    /// Commits since opening; the change log is pruned every `pruneInterval` of them.
    let commits = Mutex(0)
    static let pruneInterval = 64

    /// Tunes SQLite for this process: turns its memory statistics off, which spares a global
    /// lock on every allocation (SQLite's own advice for speed). Process-wide, so it is the
    /// host's call: make it first thing in `main`, before any library is opened, and not at all
    /// when the process also uses SQLite through other code (Core Data, GRDB). Returns whether
    /// it took effect (it cannot once SQLite has started).
    @discardableResult
    public static func tuneSQLiteForThisProcess() -> Bool {
        Connection.configureProcess(memoryStatistics: false)
    }

    /// The schema version this build of AlbumStore creates and migrates files to.
    public static var currentSchemaVersion: Int { Migrator().latestVersion }

    /// The albums, an ordered list.
    public var albums: AlbumRepository { AlbumRepository(library: self) }

    private init(path: String, configuration: Configuration, migrator: Migrator) throws {
        let (access, busyTimeout, historyLimit) = (configuration.access, configuration.busyTimeout, configuration.historyLimit)
        precondition(historyLimit > 0, "the history keeps at least one command")
        history = UndoHistory(limit: historyLimit)
        changeLog = ChangeLog(retention: configuration.changeLogRetention)
        self.path = path
        openFile = path == ":memory:" ? nil : AbsolutePath.of(path)
        self.access = access
        self.busyTimeout = busyTimeout
        self.migrator = migrator
        let plan = path == ":memory:" ? OpenPlan(filename: path, mode: .readWriteCreate, queryOnly: false)
            : try LibraryFile.plan(for: path, access: access)
        hub = ChangeHub(watching: path == ":memory:" ? nil : path, openedWith: plan, busyTimeout: busyTimeout)
        do {
            // WAL rewrites the file header: the migrator turns it on only once the file is known to be ours.
            var options = plan.options(busyTimeout: busyTimeout)
            // Every connection, readers included: queries call them.
            options.setUp = { connection throws(SQLiteError) in try QueryFunctions.register(on: connection) }
            let database: Database
            if access == .readOnly {
                // On a full disk, with one connection: it holds the file's lock while it lives.
                (database, schemaVersion, hasOrderStatistics) = try plan.reading(options) { options, isExclusive in
                    try Self.openForReading(plan.filename, options, migrator, path: path, maxReaders: isExclusive ? 1 : 4)
                }
            } else {
                database = try Database(path: plan.filename, options: options)
                (schemaVersion, hasOrderStatistics) = try database.withWriter { connection in
                    // Before migrating: migration 0005 fills the match keys with it.
                    try MatchKey.register(on: connection)
                    let version = try migrator.migrate(connection)
                    let hasStatistics = try Self.hasOrderStatistics(in: connection)
                    if hasStatistics { try Self.tidyOrderStatistics(migrator, in: connection) }
                    return (version, hasStatistics)
                }
            }
            self.database = database
            if let openFile { OpenLibraries.register(openFile) }
        } catch let error as SQLiteError where error.isNotADatabase {
            throw SchemaError.notAnAlbumStore(path: path, reason: "the file is not a SQLite database")
        } catch let error as SQLiteError {
            throw StorageError(error, path: path, busyTimeout: busyTimeout)
        }
    }

    deinit { close() }

    /// Opens `filename` for reading only: checks the file is ours and current, and writes
    /// nothing. On a reader, the connection the reads then use: SQLite parses the schema once per
    /// connection (2 to 3.5 million instructions for this one, a millisecond of a short command).
    private static func openForReading(
        _ filename: String, _ options: ConnectionOptions, _ migrator: Migrator, path: String, maxReaders: Int
    ) throws -> (Database, Int, Bool) {
        let database = try Database(path: filename, options: options, maxReaders: maxReaders)
        let (version, hasStatistics) = try database.read { connection in
            (try migrator.verify(connection, path: path), try hasOrderStatistics(in: connection))
        }
        return (database, version, hasStatistics)
    }

    /// Whether the file keeps the albums' order statistics (a test's own migrations may make none).
    private static func hasOrderStatistics(in connection: Connection) throws -> Bool {
        try connection.scalar(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", OrderBlocks.albums.order.blocks, as: Int.self) != nil
    }

    /// Opens the library at `url`, as `configuration` says: by default creating the file and its
    /// folders when missing and applying pending migrations.
    ///
    /// - Throws: `StorageError` when the path cannot serve the configuration's `access`, checked
    ///   before SQLite opens anything (`.notAFilePath` for an empty path, a NUL byte, `:memory:`
    ///   or a URL that is not a file URL, `.notFound`, `.emptyFile`, `.isADirectory`,
    ///   `.notARegularFile`, `.parentIsAFile`, `.permissionDenied`, `.readOnly`), or when SQLite
    ///   fails (`.busy`, `.corrupt`, ...); `SchemaError` when the file is not an AlbumStore
    ///   database, was migrated by a newer version, needs a migration that `.readOnly` cannot
    ///   apply, or a migration fails. The file is left as it was.
    public static func open(at url: URL, configuration: Configuration = Configuration()) throws -> Library {
        guard url.isFileURL else {
            throw StorageError(.notAFilePath, path: url.absoluteString, message: "only a file: URL names a library's file")
        }
        return try open(atPath: url.path, configuration: configuration)
    }

    /// `open(at:configuration:)` for a file path. (A command-line tool has paths; making a `URL`
    /// of one and reading its path back is, in a short process, a third of a million instructions.)
    public static func open(atPath path: String, configuration: Configuration = Configuration()) throws -> Library {
        try LibraryFile.requireFilePath(path)
        return try Library(path: path, configuration: configuration, migrator: Migrator())
    }

    /// A library in memory, gone when the value is released: for tests and previews. The
    /// configuration's `access` does not apply: the library is made anew, for reading and writing.
    public static func inMemory(configuration: Configuration = Configuration()) throws -> Library {
        try inMemory(configuration: configuration, migrator: Migrator())
    }

    /// A library at `url` whose schema is `migrator`'s (tests of migrations).
    static func open(at url: URL, configuration: Configuration = Configuration(), migrator: Migrator) throws -> Library {
        try Library(path: url.path, configuration: configuration, migrator: migrator)
    }

    static func inMemory(configuration: Configuration = Configuration(), migrator: Migrator) throws -> Library {
        var configuration = configuration
        configuration.access = .create
        return try Library(path: ":memory:", configuration: configuration, migrator: migrator)
    }

    /// Facts about the file: its path, size, schema and SQLite versions, and album count.
    public func info() throws -> LibraryInfo {
        let albumCount = try albums.count()
        // stat(2): it opens nothing (see `OpenLibraries`).
        let size = { (path: String) -> Int in
            if case let .regular(file) = FileStatus(path: path) { return Int(file.size) }
            return 0
        }
        return LibraryInfo(
            path: path, schemaVersion: schemaVersion, sqliteVersion: Connection.sqliteVersion,
            albumCount: albumCount, fileSize: size(path), walSize: size(path + "-wal"))
    }

    // MARK: Commands and undo

    /// Undoes the newest command, also one made by an earlier process.
    /// - Throws: `HistoryError.nothingToUndo`; `.nothingOlderToUndo` when every command the
    ///   history keeps (`historyLimit`) is undone; `.conflict` when the rows changed behind the
    ///   history's back.
    @discardableResult
    public func undo() throws -> HistoryEntry {
        try refuseInOpenTransaction("undo")
        guard try read({ try history.canUndo(in: $0) }) else {
            // Nothing to undo because the history is full of undone commands: say where it ends.
            let isFull = try read { try history.isFull(in: $0) }
            throw isFull ? HistoryError.nothingOlderToUndo(limit: history.limit) : HistoryError.nothingToUndo
        }
        return try commit { command in try history.undo(in: command.connection).0 }
    }

    /// Does the most recently undone command again.
    /// - Throws: `HistoryError.nothingToRedo`, or `.conflict`.
    @discardableResult
    public func redo() throws -> HistoryEntry {
        try refuseInOpenTransaction("redo")
        guard try read({ try history.canRedo(in: $0) }) else { throw HistoryError.nothingToRedo }
        return try commit { command in try history.redo(in: command.connection).0 }
    }

    /// Forgets the command `undo()` would undo next, without undoing it, and returns it.
    ///
    /// The way past a command that can no longer be undone: once a row it changed was changed
    /// outside the library (say in the `sqlite3` shell), its undo fails with
    /// `HistoryError.conflict` every time, and the older commands behind it cannot be reached.
    /// Dropping it makes the one before it next. Undone commands (the redo stack) are kept.
    /// Dropping is not itself a command: it cannot be undone.
    /// - Throws: `HistoryError.nothingToUndo` when no command is left to undo.
    @discardableResult
    public func dropNewestHistoryEntry() throws -> HistoryEntry {
        try refuseIfReadOnly()
        guard try read({ try history.canUndo(in: $0) }) else { throw HistoryError.nothingToUndo }
        return try mappingStorageErrors(path: path, busyTimeout: busyTimeout) { try database.write { try history.dropNewest(in: $0) } }
    }

    /// Forgets every command in the history, undone ones too, and returns how many there were.
    /// Nothing can be undone or redone afterwards, and this cannot be undone either.
    @discardableResult
    public func dropHistory() throws -> Int {
        try refuseIfReadOnly()
        return try mappingStorageErrors(path: path, busyTimeout: busyTimeout) { try database.write { try history.dropAll(in: $0) } }
    }

    /// Whether `undo()` has a command to undo: for enabling an Undo button.
    public func canUndo() throws -> Bool {
        try read { try history.canUndo(in: $0) }
    }

    /// Whether `redo()` has an undone command to redo.
    public func canRedo() throws -> Bool {
        try read { try history.canRedo(in: $0) }
    }

    /// `canUndo()` without blocking Swift's cooperative threads.
    public func canUndo() async throws -> Bool {
        let history = history
        return try await read { try history.canUndo(in: $0) }
    }

    /// `canRedo()` without blocking Swift's cooperative threads.
    public func canRedo() async throws -> Bool {
        let history = history
        return try await read { try history.canRedo(in: $0) }
    }

    /// The commands that can be undone (and, marked undone, redone), oldest first.
    public func historyEntries() throws -> [HistoryEntry] {
        try read { try history.entries(in: $0) }
    }

    /// The commands that can be undone (and, marked undone, redone), oldest first.
    public func historyEntries() async throws -> [HistoryEntry] {
        let history = history
        return try await read { try history.entries(in: $0) }
    }

    /// Runs one command in a write transaction and records its changes to `tables` (the undoable
    /// ones unless a command also puts back navigation state, like a snapshot restore) as one
    /// history entry. `body` returns its result and a short description for the history.
    func perform<T: Sendable>(
        recording tables: [String] = TableDescription.undoable, _ body: (Command) throws -> (T, String)
    ) throws -> T {
        // Inside `write(_:)`: a part of its command, which records the whole.
        if let command = openTransaction.command(for: database) {
            return try command.connection.savepoint { try body(command).0 }
        }
        return try commit { command in
            let recorder = try ChangeRecorder(connection: command.connection, tables: tables)
            let (result, description) = try body(command)
            let changeset = try recorder.changeset()
            if !changeset.isEmpty { try history.record(changeset, description: description, in: command.connection) }
            return result
        }
    }

    /// Runs a change that is navigation, not an edit (session state): one transaction and one
    /// change set like a command, but no history entry, and no change to the albums' order.
    /// Since `body` changes no album, the order statistics are checked only if it asks for them
    /// (`Command.order()`) and their blocks are not tidied afterwards: a save of the current
    /// album is a few statements, not the dozen of a command.
    ///
    /// `body` changes at most one row, of a navigation table (`TableDescription.isNavigation`):
    /// its trigger logs one entry and numbers it, so the write knows the entry's place in the
    /// log (`Command.latestCursor`) and needs no numbering of its own. (Debug builds check it.)
    func navigate<T: Sendable>(_ body: (Command) throws -> T) throws -> T {
        if let command = openTransaction.command(for: database) {
            return try command.connection.savepoint { try body(command) }
        }
        return try commit(navigation: true) { command in try body(command) }
    }

    /// Runs a bulk append (see `AlbumRepository.append(contentsOf:)`): `body` returns the new ids,
    /// which the history keeps instead of a changeset.
    func performAppend(_ body: (Connection) throws -> (RowIDs, String)) throws -> RowIDs {
        if let command = openTransaction.command(for: database) {
            return try command.connection.savepoint { try body(command.connection).0 }
        }
        return try commit { command in
            let (ids, description) = try body(command.connection)
            if !ids.isEmpty { try history.recordAppend(ids, description: description, in: command.connection) }
            return ids
        }
    }

    /// Runs an import (`importAlbums`): `body` returns its result, the new ids and the changeset
    /// of its in-place updates, kept together as one history entry. A body that throws
    /// `RollingBack` leaves the library as it was and returns the result it carries.
    func performImport<T: Sendable>(_ body: (Connection) throws -> (T, RowIDs, Changeset, String)) throws -> T {
        try refuseInOpenTransaction("an import is a transaction of its own")
        do {
            return try commit { command in
                let (result, ids, updates, description) = try body(command.connection)
                if !ids.isEmpty {
                    try history.recordAppend(ids, updates: updates, description: description, in: command.connection)
                } else if !updates.isEmpty {
                    // Nothing added: an ordinary command.
                    try history.record(updates, description: description, in: command.connection)
                }
                return result
            }
        } catch let rollback as RollingBack<T> {
            return rollback.result
        }
    }

    /// Thrown from a command's body to roll its transaction back and still return `result`.
    struct RollingBack<T: Sendable>: Error {
        let result: T
    }

    /// Runs `body` in a write transaction whose change-log entries get a number of their own, with the order
    /// statistics made right first (if they may have missed writes) and tidied last (blocks cut
    /// or merged, `OrderBlocks.finish`), then hands the change log's new entries to subscribers.
    /// `navigation`: `body` changes no album (see `navigate`).
    private func commit<T: Sendable>(navigation: Bool = false, _ body: (Command) throws -> T) throws -> T {
        try refuseIfReadOnly()
        try refuseIfClosed()
        return try retryingStaleOrder {
            try mappingStorageErrors(path: path, busyTimeout: busyTimeout) {
                try database.withWriter { connection in
                    let (result, latest, begun, repaired) = try connection.transaction(.immediate) {
                        if !navigation, hasOrderStatistics, try !OrderBlocks.albums.areChecked(in: connection) {
                            try Self.repairOrderStatistics(migrator, in: connection)
                        }
                        // Navigation: the file as it is before this write changes anything.
                        let begun = navigation && hasOrderStatistics ? try orderBlocks.start(in: connection) : nil
                        let start = begun?.state
                        // A navigation write numbers no entry (see `navigate`): its newest is not read.
                        let logged: (cursor: Int64, transaction: Int64?) = try start.map { ($0.cursor, nil) }
                            ?? ChangeLog.newest(in: connection)
                        let command = Command(
                            connection: connection, startCursor: logged.cursor,
                            orderIsChecked: !navigation && hasOrderStatistics,
                            navigation: start.map { start in
                                Command.Navigation(cache: orderBlocks, start: start) { [migrator] in
                                    try Self.repairOrderStatistics(migrator, in: connection)
                                }
                            })
                        let result = try body(command)
                        if hasOrderStatistics && (!navigation || command.repairedOrder) {
                            try OrderBlocks.albums.finish(in: connection)
                        }
                        let count = commits.withLock { $0 += 1; return $0 }
                        if count % Self.pruneInterval == 1 { try changeLog.prune(in: connection) }
                        let latest = try command.latestCursor()
                        // One entry of a navigation write: its trigger numbered it already
                        // (`ChangeLogTriggers.numbersEachEntry`).
                        if latest > logged.cursor + (navigation ? 1 : 0) {
                            let transaction = try logged.transaction ?? ChangeLog.transaction(at: logged.cursor, in: connection)
                            try ChangeLog.number(entriesAfter: logged.cursor, as: transaction + 1, in: connection)
                        }
                        return (result, latest, begun, command.repairedOrder)
                    }
                    if let begun {
                        orderBlocks.committed(from: begun.state, dataVersion: begun.dataVersion, to: latest,
                                              totalChanges: connection.totalChanges, schemaChanged: repaired)
                    }
                    // Subscribers get their own commits at once; other connections' come through the hub's watch.
                    hub.publish(from: connection)
                    return result
                }
            }
        }
    }

    /// At open, for writing: rebuilds order statistics that may have missed writes (the first
    /// open after migration 0006, or a trigger dropped in the `sqlite3` shell) and cuts blocks
    /// grown large (another program's inserts). Reads only when all is well.
    private static func tidyOrderStatistics(_ migrator: Migrator, in connection: Connection) throws {
        let blocks = OrderBlocks.albums
        guard try !blocks.areChecked(in: connection) || blocks.needsRebalancing(in: connection) else { return }
        try connection.transaction(.immediate) {
            if try !blocks.areChecked(in: connection) { try repairOrderStatistics(migrator, in: connection) }
            try blocks.finish(in: connection)
        }
    }

    /// Puts the generated triggers back as generated (one may have been dropped while the library
    /// was open, and counts kept without it would go wrong again) and counts the albums again.
    private static func repairOrderStatistics(_ migrator: Migrator, in connection: Connection) throws {
        try migrator.triggers.install(in: connection)
        try OrderBlocks.albums.rebuild(in: connection)
    }

    /// Refuses a write on a library opened `.readOnly`, before anything is touched.
    func refuseIfReadOnly() throws {
        if access == .readOnly { throw StorageError(.readOnly, path: path, message: "opened for reading only") }
    }

    /// Runs the command `body`, and once more after rebuilding the order statistics if they
    /// turned out wrong (another program went around the triggers without the schema version
    /// showing it).
    private func retryingStaleOrder<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch is OrderStatistics.Stale {
            try mappingStorageErrors(path: path, busyTimeout: busyTimeout) {
                try database.write { try Self.repairOrderStatistics(migrator, in: $0) }
            }
            do {
                return try body()
            } catch is OrderStatistics.Stale {
                throw StorageError(
                    code: SQLiteError.ResultCode.corrupt, message: "the album order disagrees with the albums table", path: path)
            }
        }
    }

    // MARK: Transactions

    /// Runs `body` as one transaction and one command: the changes it makes through `library`
    /// (moving albums, setting the current album, editing, appending...) commit together, reach
    /// observers as one change set, and `undo()` takes them back as one step, session state
    /// included. Reads in `body` see its own writes. When `body` throws, nothing it did stays.
    ///
    /// ```swift
    /// try library.write("move and show") { library in
    ///     let album = try library.albums.move(id: id, to: 0)
    ///     try library.session.setCurrentAlbum(id: album.id)
    /// }
    /// ```
    ///
    /// `body` runs on the calling thread holding the library's write lock: other threads' writes
    /// wait (up to `busyTimeout`), reads on other threads go on and see the state before it.
    /// Inside it, `undo()`, `redo()` and imports throw `StorageError` `.misuse`.
    /// - Parameters:
    ///   - description: How the history names the command.
    ///   - body: The reads and changes to make as one command, given the library to make them
    ///     through; what it returns, `write` returns.
    @discardableResult
    public func write<T: Sendable>(_ description: String = "changes", _ body: (Library) throws -> T) throws -> T {
        try refuseInOpenTransaction("a transaction inside a transaction")
        return try perform(recording: TableDescription.restorable) { command in
            openTransaction.begin(command)
            defer { openTransaction.end() }
            let result = try body(self)
            // The async form's task was cancelled while `body` ran: roll back, commit nothing.
            if Interruption.isCurrentWorkInterrupted { throw CancellationError() }
            return (result, description)
        }
    }

    /// `write(_:_:)` without blocking Swift's cooperative threads: `body` runs on a thread of its
    /// own. The way for an app to make any change from async code. Cancelling the task before
    /// the transaction commits rolls it back (`CancellationError`); once committed, the command
    /// stands and its result is returned.
    @discardableResult
    public func write<T: Sendable>(
        _ description: String = "changes", _ body: @escaping @Sendable (Library) throws -> T
    ) async throws -> T {
        try await offCooperativeThreads { try self.write(description, body) }
    }

    /// Throws when called inside `write(_:)`'s body, for what cannot be part of it.
    func refuseInOpenTransaction(_ what: String) throws {
        guard openTransaction.command(for: database) == nil else {
            throw StorageError(.misuse, path: path, message: "\(what) cannot run inside write(_:); run it after the transaction")
        }
    }

    // MARK: Closing

    /// Closes the library now: its connections and file descriptors are released, its change
    /// streams end, and every later call throws `StorageError` `.misuse`. A transaction or read
    /// under way on another thread finishes first. Closing twice does nothing. (Releasing the
    /// last reference to a library closes it too.)
    public func close() {
        guard isOpen.exchange(false, ordering: .sequentiallyConsistent) else { return }
        database.close()
        hub.finishAll()
        if let openFile { OpenLibraries.unregister(openFile) }
    }

    /// Closes the library as `close()` does, once the watch of other processes' commits has
    /// closed its own connection: this one is then the file's last, and SQLite removes the
    /// write-ahead log and its index (a process that exits right after leaves no `-wal` or `-shm`).
    package func closeAfterWatch() async {
        guard isOpen.exchange(false, ordering: .sequentiallyConsistent) else { return }
        await hub.finishAll()?.value
        database.close()
        if let openFile { OpenLibraries.unregister(openFile) }
    }

    /// Whether `close()` has not been called.
    private let isOpen = Atomic(true)

    func refuseIfClosed() throws {
        guard isOpen.load(ordering: .relaxed) else {
            throw StorageError(.misuse, path: path, message: "the library was closed")
        }
    }

    // MARK: Reading

    /// Runs `body` on a reader, in a read transaction (a snapshot of committed data).
    /// Inside `write(_:)` on its thread, the transaction's own connection: reads see its writes.
    func read<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        try refuseIfClosed()
        if let command = openTransaction.command(for: database) { return try body(command.connection) }
        return try mappingStorageErrors(path: path, busyTimeout: busyTimeout) { try database.read(body) }
    }

    /// `read` for one statement, without a transaction of its own (see `Database.readStatement`).
    func readStatement<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        try refuseIfClosed()
        if let command = openTransaction.command(for: database) { return try body(command.connection) }
        return try mappingStorageErrors(path: path, busyTimeout: busyTimeout) { try database.readStatement(body) }
    }

    /// `read` without blocking Swift's cooperative threads.
    func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await offCooperativeThreads { try self.read(body) }
    }

    /// Runs `work`, which may wait for a lock or the disk, on a thread of its own, so that a
    /// waiting read does not hold one of Swift's few cooperative threads.
    ///
    /// Cancelling the task stops the statements `work` reads with (`Interruption`): it then
    /// throws `CancellationError` within a few thousand steps of SQLite rather than when the
    /// reads end. Every `async` read of the library comes through here.
    package func offCooperativeThreads<T: Sendable>(_ work: sending @escaping () throws -> T) async throws -> T {
        try Task.checkCancellation()
        // `work` was sent here, so no other code holds it: handing it to the thread is safe.
        nonisolated(unsafe) let work = work
        let interruption = Interruption()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global(qos: .userInitiated).async {
                    continuation.resume(with: Result {
                        do {
                            return try interruption.run(work)
                        } catch where interruption.isInterrupted {
                            throw CancellationError()
                        }
                    })
                }
            }
        } onCancel: {
            interruption.interrupt()
        }
    }

    /// Runs `body` on a reader with the order statistics of its snapshot; once more counting
    /// the table itself if the stored counts turn out wrong (a reader cannot rebuild them).
    func readOrdered<T: Sendable>(_ body: (Connection, OrderStatistics) throws -> T) throws -> T {
        do {
            return try read { try body($0, try OrderStatistics(in: $0)) }
        } catch is OrderStatistics.Stale {
            do {
                return try read { try body($0, try OrderStatistics(in: $0, exact: true)) }
            } catch is OrderStatistics.Stale {
                throw StorageError(
                    code: SQLiteError.ResultCode.corrupt, message: "the album order disagrees with the albums table", path: path)
            }
        }
    }

    /// `readOrdered` without blocking Swift's cooperative threads.
    func readOrdered<T: Sendable>(_ body: @escaping @Sendable (Connection, OrderStatistics) throws -> T) async throws -> T {
        try await offCooperativeThreads { try self.readOrdered(body) }
    }

    // MARK: Observation

    /// A new subscription to the change sets of every transaction committed to this library's
    /// file from now on: through this library, another `Library` on the file, or another process
    /// (see `ChangeStream` for sharing, buffering and ending). Each access subscribes anew.
    public var changes: ChangeStream { changes(bufferSize: 1024) }

    /// A subscription whose buffer holds up to `bufferSize` change sets before it overflows.
    public func changes(bufferSize: Int) -> ChangeStream {
        // The newest commit now: the subscription starts after it.
        hub.subscribe(capacity: bufferSize, after: try? database.readStatement { try ChangeLog.latestCursor(in: $0) })
    }

    /// Computes `value` now and again after every committed change to `tables`, by any
    /// connection to the file, like GRDB's ValueObservation: changes that arrive while a value
    /// is computed are coalesced into one recomputation, and a slow consumer sees only the newest
    /// value. Each consumer observes on its own (see `LibraryObservation`). Ends when the
    /// consuming task is cancelled, `value` throws, or the library is released (an observation
    /// does not keep it alive). Use the library's `async` reads in `value`: they do not block
    /// Swift's cooperative threads.
    public func observe<T: Sendable>(
        _ tables: Set<ObservedTable> = [.albums], _ value: @escaping @Sendable (Library) async throws -> T
    ) -> LibraryObservation<T> {
        LibraryObservation(library: self, tables: tables, value: value)
    }

    /// One consumer's observation (`observe(_:_:)`).
    func observation<T: Sendable>(
        of tables: Set<ObservedTable>, _ value: @escaping @Sendable (Library) async throws -> T
    ) -> AsyncThrowingStream<T, Error> {
        let changes = changes
        return AsyncThrowingStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let task = Task { [weak self] in
                do {
                    var iterator = changes.makeAsyncIterator()
                    var isStale = true
                    while true {
                        if isStale {
                            guard let library = self else { break }
                            continuation.yield(try await value(library))
                        }
                        guard let first = await iterator.next() else { break }
                        let pending = [first] + iterator.drain()
                        isStale = pending.contains { set in tables.contains { set.touches($0.name) } }
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
    /// `pruneInterval` commits). - Throws: `StorageError` `.readOnly` on a read-only library.
    public func pruneChangeLog() throws {
        try refuseIfReadOnly()
        return try mappingStorageErrors(path: path, busyTimeout: busyTimeout) {
            try database.write { try changeLog.prune(in: $0) }
        }
    }

    /// A feed of the change sets committed by any process to this library's file, after `cursor`
    /// (`nil`: from now on, the moment this is called, whenever the feed is first read). It ends
    /// when this library is closed or released.
    public func changeFeed(since cursor: Int64? = nil, pollInterval: Duration = .milliseconds(10)) -> ChangeFeed {
        let start = cursor ?? (try? read { try ChangeLog.latestCursor(in: $0) })
        var feed = ChangeFeed(path: path, since: start, pollInterval: pollInterval, busyTimeout: busyTimeout)
        feed.libraryIsGone = { [weak self] in self?.isOpen.load(ordering: .relaxed) != true }
        return feed
    }
}
