import FoundationEssentials

/// Reader connections to one file, opened on demand up to `capacity` and reused.
///
/// A thread that reads from inside its own read gets the connection it already holds (the inner
/// read is a savepoint of the same snapshot), so nested reads neither deadlock nor use up the
/// pool. Other readers wait only for each other, and only when all `capacity` are busy: then at
/// most `busyTimeout`, after which they fail with `SQLiteError.readersBusy`.
///
/// `@unchecked Sendable` is sound because the connections are reachable only under `condition`
/// (idle) or by the one thread holding them (`held`).
final class ReaderPool: @unchecked Sendable {
    private let path: String
    private let options: ConnectionOptions
    private let capacity: Int
    private let busyTimeout: Duration
    private let condition = Lock()
    private var idle: [Connection] = []
    private var opened = 0
    private var isClosed = false
    /// The connection each thread holds. An array, not a dictionary: it holds `capacity` at most,
    /// and a first `[UInt: Connection]` costs the Swift runtime a scan of the binary's protocol
    /// conformances (a command's start).
    private var held: [(thread: UInt, connection: Connection)] = []

    init(path: String, options: ConnectionOptions, capacity: Int) {
        precondition(capacity > 0, "a reader pool holds at least one connection")
        self.path = path
        self.options = options
        self.capacity = capacity
        busyTimeout = options.busyTimeout
    }

    /// Whether the calling thread is inside a closure holding one of the readers.
    var isHeldByCurrentThread: Bool {
        let me = ThreadID.current
        condition.lock()
        defer { condition.unlock() }
        return held.contains { $0.thread == me }
    }

    /// Closes the idle connections now and each one in use when its closure returns; later
    /// calls throw `SQLiteError.closed`.
    func close() {
        condition.lock()
        isClosed = true
        idle.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        let me = ThreadID.current
        condition.lock()
        if isClosed {
            condition.unlock()
            throw SQLiteError.closed
        }
        if let connection = held.first(where: { $0.thread == me })?.connection {
            condition.unlock()
            return try body(connection)
        }
        if idle.isEmpty && opened >= capacity && !isClosed {
            let deadline = ContinuousClock.now + busyTimeout
            while idle.isEmpty && opened >= capacity && !isClosed {
                if !condition.wait(until: deadline), idle.isEmpty && opened >= capacity && !isClosed {
                    // The wake-up of a release may have come with the timeout: pass it on.
                    condition.signal()
                    condition.unlock()
                    throw SQLiteError.readersBusy(capacity: capacity)
                }
            }
        }
        if isClosed {
            condition.unlock()
            throw SQLiteError.closed
        }
        let connection: Connection
        if let reused = idle.popLast() {
            connection = reused
        } else {
            opened += 1
            condition.unlock()
            do {
                connection = try Connection(path: path, options: options)
            } catch {
                condition.lock()
                opened -= 1
                condition.signal()
                condition.unlock()
                throw error
            }
            condition.lock()
        }
        held.append((me, connection))
        condition.unlock()
        defer {
            condition.lock()
            held.removeAll { $0.thread == me }
            if isClosed { opened -= 1 } else { idle.append(connection) }
            condition.signal()
            condition.unlock()
        }
        return try body(connection)
    }
}

extension SQLiteError {
    /// Every reader connection stayed busy with other reads for longer than the busy timeout.
    public static func readersBusy(capacity: Int) -> SQLiteError {
        SQLiteError(
            extendedCode: ResultCode.busyTimeout,
            message: "all \(capacity) reader connections are busy with other reads")
    }
}
