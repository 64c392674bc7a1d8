import CSQLite
import Synchronization

/// A request, from another thread, to stop the statements a piece of work runs: the Swift task
/// waiting for the work was cancelled, say.
///
/// Run the work in `run`: every connection `Database.read` and `readStatement` lend it on that
/// thread meanwhile checks the request every 1000 steps of SQLite's virtual machine, through
/// the progress handler, so a statement running when `interrupt()` is called, or started
/// after, fails with `SQLITE_INTERRUPT`; a function made with `createFunction` fails the same way
/// at its next call. A read still waiting for a connection is not cut short: that wait ends
/// within the busy timeout anyway.
/// Related SQLite documentation: https://sqlite.org/c3ref/progress_handler.html
public final class Interruption: Sendable {
    private let requested = Atomic<Bool>(false)
    /// The interruption of the work running on this thread, if any.
    @TaskLocal static var current: Interruption?

    public init() {}

    /// Asks the work's statements to stop; callable from any thread, any number of times.
    public func interrupt() { requested.store(true, ordering: .relaxed) }

    /// Whether `interrupt()` was called.
    public var isInterrupted: Bool { requested.load(ordering: .relaxed) }

    /// Whether the work running on this thread (inside `run`) was asked to stop.
    public static var isCurrentWorkInterrupted: Bool { current?.isInterrupted == true }

    /// Runs `work` on this thread, its reads watching for `interrupt()`.
    public func run<T>(_ work: () throws -> T) rethrows -> T {
        try Self.$current.withValue(self) { try work() }
    }
}

extension Connection {
    /// Runs `body` with this connection's statements stopped by the current thread's
    /// `Interruption`, when there is one. A nested call on the same connection keeps the
    /// handler of the outer one.
    func watchingInterruption<T>(_ body: () throws -> T) rethrows -> T {
        guard let interruption = Interruption.current, database.interruption !== interruption else { return try body() }
        let outer = database.interruption
        database.watch(interruption)
        defer { database.watch(outer) }
        return try body()
    }
}

extension ConnectionHandle {
    /// Installs the progress handler that stops statements once `interruption` is requested,
    /// or removes it for `nil`.
    func watch(_ interruption: Interruption?) {
        self.interruption = interruption
        guard interruption != nil else { return sqlite3_progress_handler(sqlite, 0, nil, nil) }
        // The context is this object, unretained: it owns the sqlite3* the handler is set on.
        sqlite3_progress_handler(sqlite, 1000, { context in
            guard let context else { return 0 }
            let handle = Unmanaged<ConnectionHandle>.fromOpaque(context).takeUnretainedValue()
            return handle.interruption?.isInterrupted == true ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }
}
