#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// A connection reachable only while holding it, which knows the thread holding it: a second
/// call from that thread would wait for itself forever, so it is refused (or, for reads,
/// allowed on the connection the thread already holds). A call from another thread waits for
/// the holder at most `busyTimeout`, as SQLite waits for another connection's lock, then fails
/// with `SQLiteError.writerBusy`: two threads that wait for each other (a write inside a
/// callback waiting for another thread's write) fail instead of hanging.
///
/// `@unchecked Sendable` is sound because `connection` is private and only set or handed to
/// closures while `isHeld` (changed under `lock`), and the closures' results must be `Sendable`.
/// (`Mutex` cannot express this: its `inout sending` value cannot be lent to a caller's closure.)
final class ExclusiveConnection: @unchecked Sendable {
    private let lock = Lock()
    /// Whether a thread holds the connection; under `lock`.
    private var isHeld = false
    /// `nil` until the first call when the connection is opened on demand.
    private var connection: Connection?
    private let open: (@Sendable () throws(SQLiteError) -> Connection)?
    /// Set by `close()`, under `lock`.
    private var isClosed = false
    private let busyTimeout: Duration
    /// The thread holding the connection (`ThreadID.none` when free). Only the holder writes its
    /// own id, so a thread that reads its own id here surely holds it.
    private let owner = Atomic<UInt>(ThreadID.none)

    init(_ connection: Connection, busyTimeout: Duration) {
        self.connection = connection
        open = nil
        self.busyTimeout = busyTimeout
    }

    /// A connection `open` makes at the first call that needs it; a failure to open is that
    /// call's error, and the next call tries again.
    init(opening open: @escaping @Sendable () throws(SQLiteError) -> Connection, busyTimeout: Duration) {
        connection = nil
        self.open = open
        self.busyTimeout = busyTimeout
    }

    var isHeldByCurrentThread: Bool { owner.load(ordering: .relaxed) == ThreadID.current }

    /// Runs `body` with the connection. A call from the thread that already holds it runs on
    /// the same connection when `reentrant`, and throws `SQLiteError.reentrantCall` otherwise.
    /// - Throws: `SQLiteError.writerBusy` when another thread holds the connection for longer
    ///   than `busyTimeout`.
    func withConnection<T>(reentrant: Bool, _ body: (Connection) throws -> T) throws -> T {
        let me = ThreadID.current
        if owner.load(ordering: .relaxed) == me {
            // No connection yet: a call from inside its opening.
            if isClosed { throw SQLiteError.closed }
            guard reentrant, let connection else { throw SQLiteError.reentrantCall }
            return try body(connection)
        }
        try take()
        owner.store(me, ordering: .relaxed)
        defer {
            owner.store(ThreadID.none, ordering: .relaxed)
            release()
        }
        return try body(try opened())
    }

    /// Drops the connection (closing it once nothing else holds it); later calls throw
    /// `SQLiteError.closed`. Waits for a call under way on another thread to end.
    func close() {
        if isHeldByCurrentThread {
            connection = nil
            isClosed = true
            return
        }
        lock.lock()
        while isHeld { lock.wait() }
        connection = nil
        isClosed = true
        // Another thread waiting to take it: let it see the close.
        lock.signal()
        lock.unlock()
    }

    /// Waits until no thread holds the connection, at most `busyTimeout`, and holds it.
    private func take() throws(SQLiteError) {
        lock.lock()
        defer { lock.unlock() }
        if isHeld {
            let deadline = ContinuousClock.now + busyTimeout
            while isHeld {
                if !lock.wait(until: deadline), isHeld {
                    // The wake-up of a release may have come with the timeout: pass it on.
                    lock.signal()
                    throw SQLiteError.writerBusy
                }
            }
        }
        isHeld = true
    }

    private func release() {
        lock.lock()
        isHeld = false
        lock.signal()
        lock.unlock()
    }

    /// The connection, opened now if it is not yet. Only while held.
    private func opened() throws(SQLiteError) -> Connection {
        if isClosed { throw SQLiteError.closed }
        if let connection { return connection }
        guard let open else { preconditionFailure("an ExclusiveConnection has a connection or a way to open one") }
        let connection = try open()
        self.connection = connection
        return connection
    }
}

/// The calling thread's identity, as a number (never 0).
enum ThreadID {
    static let none: UInt = 0

    static var current: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}

extension SQLiteError {
    /// A call on a database after `Database.close()`.
    public static let closed = SQLiteError(extendedCode: ResultCode.misuse, message: "the database was closed")

    /// A write from inside a closure that holds a reader (`Database.read`): the read's snapshot
    /// would not see it.
    public static let writeInsideRead = SQLiteError(
        extendedCode: ResultCode.misuse,
        message: "a change cannot be made from inside a read's closure (forEach, say), whose snapshot would not "
            + "see it: collect what to change and change it after the read, or read and change inside write(_:)")

    /// Another thread of this process held the writer for longer than the busy timeout
    /// (`SQLITE_BUSY_TIMEOUT`, which SQLite itself uses only for a timed-out file lock).
    public static let writerBusy = SQLiteError(
        extendedCode: ResultCode.busyTimeout,
        message: "another thread of this process is holding the writer")

    /// A call into a database from inside a closure that already holds its writer, on the same
    /// thread: it would wait for itself forever.
    public static let reentrantCall = SQLiteError(
        extendedCode: ResultCode.misuse,
        message: "database methods are not reentrant: this call was made from inside a closure that holds the "
            + "writer; make it after the closure returns, or use the connection the closure was given")
}
