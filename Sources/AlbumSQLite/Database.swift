import Foundation

/// A database shared safely across threads and tasks: one serialized writer connection and,
/// for files, one reader connection.
///
/// The concurrency model: a `Connection` is not `Sendable`, and the only way to reach one is
/// inside `write` or `read`, which hold that connection's lock for the closure's duration.
/// Writes are serialized (SQLite allows one writer anyway); under WAL the reader never waits for
/// the writer and sees only committed data. In-memory databases cannot share data between
/// connections, so there reads go through the writer.
public final class Database: Sendable {
    public let path: String
    private let writer: LockedConnection
    private let reader: LockedConnection?

    /// Opens `path` with a writer connection and, unless it is in memory, a reader.
    public init(path: String, options: ConnectionOptions = .default) throws(SQLiteError) {
        self.path = path
        let connection = try Connection(path: path, options: options)
        writer = LockedConnection(connection)
        if connection.isInMemory {
            reader = nil
        } else {
            var readerOptions = options
            readerOptions.mode = .readWrite
            readerOptions.journalMode = nil
            readerOptions.queryOnly = true
            reader = LockedConnection(try Connection(path: path, options: readerOptions))
        }
    }

    /// Wraps an open connection: it becomes the writer, and reads share it.
    public init(writer connection: Connection) {
        path = connection.path
        writer = LockedConnection(connection)
        reader = nil
    }

    /// Runs `body` on the writer inside an immediate transaction: commits on return, rolls back on throw.
    public func write<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        try withWriter { connection in try connection.transaction(.immediate) { try body(connection) } }
    }

    /// Runs `body` inside a read transaction: a consistent snapshot of committed data.
    public func read<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        guard let reader else { return try withWriter { connection in try connection.read { try body(connection) } } }
        return try reader.withLock { connection in try connection.read { try body(connection) } }
    }

    /// Runs `body` on the writer with no transaction of its own (for pragmas, hooks, migrations).
    public func withWriter<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        try writer.withLock { connection in try body(connection) }
    }
}

/// A connection reachable only while holding its lock.
///
/// `@unchecked Sendable` is sound because `connection` is private and only handed to closures
/// under `lock`, and the closures' results must be `Sendable`. (`Mutex` cannot express this:
/// its `inout sending` value cannot be lent to a caller's closure.)
final class LockedConnection: @unchecked Sendable {
    private let lock = NSLock()
    private let connection: Connection

    init(_ connection: Connection) { self.connection = connection }

    func withLock<T: Sendable>(_ body: (Connection) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }
}
