/// A database shared safely across threads and tasks: one serialized writer connection and,
/// for files, a pool of reader connections.
///
/// The concurrency model: a `Connection` is not `Sendable`, and the only way to reach one is
/// inside `write`, `read` or `withWriter`, which lend it to a closure for the closure's
/// duration; the closures' results must be `Sendable`. Writes are serialized (SQLite allows one
/// writer anyway). Reads never wait for the writer: under WAL each reader sees a consistent
/// snapshot of committed data while a write is under way. In-memory databases cannot share data
/// between connections, so there reads go through the writer.
///
/// Every wait is bounded by the options' `busyTimeout`: for another connection's lock (SQLite's
/// busy timeout), for the writer held by another thread, and for a reader when all are busy;
/// the last two throw `SQLiteError.writerBusy` and `readersBusy` (`SQLITE_BUSY_TIMEOUT`).
///
/// Calls are not reentrant on the writer: a write (or `withWriter`) from inside a closure that
/// already holds the writer on the same thread throws `SQLiteError.reentrantCall` at once
/// instead of waiting forever for itself. A read from inside any closure works: it goes to a
/// reader (or, in memory, runs on the writer the thread already holds).
public final class Database: Sendable {
    public let path: String
    private let writer: ExclusiveConnection
    private let readers: ReaderPool?

    /// Opens `path` with a writer connection and, unless it is in memory, up to `maxReaders`
    /// reader connections opened on demand.
    ///
    /// A database for reading only (`options.mode` `.readOnly`, or `queryOnly`) is taken to be a
    /// file, and its writer, which can write nothing, opens only when something asks for it (a
    /// backup, say): its reads go to the readers, and a short command that only reads saves
    /// opening and closing a connection it would never use.
    public init(path: String, options: ConnectionOptions = .default, maxReaders: Int = 4) throws(SQLiteError) {
        self.path = path
        var readerOptions = options
        if readerOptions.mode == .readWriteCreate { readerOptions.mode = .readWrite }
        readerOptions.journalMode = nil
        readerOptions.queryOnly = true
        if options.mode == .readOnly || options.queryOnly {
            writer = ExclusiveConnection(
                opening: { () throws(SQLiteError) in try Connection(path: path, options: options) }, busyTimeout: options.busyTimeout)
            readers = ReaderPool(path: path, options: readerOptions, capacity: maxReaders)
            return
        }
        let connection = try Connection(path: path, options: options)
        writer = ExclusiveConnection(connection, busyTimeout: options.busyTimeout)
        readers = connection.isInMemory ? nil : ReaderPool(path: path, options: readerOptions, capacity: maxReaders)
    }

    /// Wraps an open connection: it becomes the writer, and reads share it. A call waits for
    /// another thread's at most `busyTimeout`.
    public init(writer connection: Connection, busyTimeout: Duration = ConnectionOptions.default.busyTimeout) {
        path = connection.path
        writer = ExclusiveConnection(connection, busyTimeout: busyTimeout)
        readers = nil
    }

    /// Runs `body` on the writer inside an immediate transaction: commits on return, rolls back on throw.
    /// - Throws: `SQLiteError.reentrantCall` when this thread already holds the writer.
    public func write<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        try refuseInsideRead()
        return try withWriter { connection in try connection.transaction(.immediate) { try body(connection) } }
    }

    /// Runs `body` inside a read transaction: a consistent snapshot of committed data, never
    /// waiting for a write under way. Run under an `Interruption`, its statements stop when
    /// that is requested.
    public func read<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        try readStatement { connection in try connection.read { try body(connection) } }
    }

    /// Runs `body` on a reader (the writer, in memory) without a transaction of its own: for a
    /// read of one statement, which SQLite runs on one snapshot anyway, without the BEGIN and
    /// COMMIT around it (a few microseconds a query).
    public func readStatement<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        guard let readers else {
            return try writer.withConnection(reentrant: true) { connection in try connection.watchingInterruption { try body(connection) } }
        }
        return try readers.withConnection { connection in try connection.watchingInterruption { try body(connection) } }
    }

    /// Runs `body` on the writer with no transaction of its own (for pragmas, hooks, migrations).
    /// - Throws: `SQLiteError.reentrantCall` when this thread already holds the writer.
    public func withWriter<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        try refuseInsideRead()
        return try writer.withConnection(reentrant: false) { connection in try body(connection) }
    }

    /// Closes every connection: idle ones now, one in use when its closure returns. Later calls
    /// throw `SQLiteError.closed`.
    public func close() {
        writer.close()
        readers?.close()
    }

    /// Whether the calling thread is inside a closure that holds the writer.
    public var isWriterHeldByCurrentThread: Bool { writer.isHeldByCurrentThread }

    /// A write from inside a read's closure would commit unseen by that read: its snapshot stays
    /// as it began, and a later read in the closure would not find what was just written.
    private func refuseInsideRead() throws(SQLiteError) {
        if readers?.isHeldByCurrentThread == true { throw SQLiteError.writeInsideRead }
    }
}
