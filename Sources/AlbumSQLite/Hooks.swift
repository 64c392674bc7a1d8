import CSQLite

/// A row written by INSERT, UPDATE or DELETE, as the update hook reports it.
public struct RowChange: Sendable, Hashable {
    public enum Operation: Sendable, Hashable { case insert, update, delete }
    public var operation: Operation
    public var table: String
    public var rowID: Int64

    public init(operation: Operation, table: String, rowID: Int64) {
        self.operation = operation
        self.table = table
        self.rowID = rowID
    }
}

/// The closures a connection calls from SQLite's hooks, kept in its `ConnectionHandle`.
struct Hooks {
    var update: ((RowChange) -> Void)?
    var commit: (() -> Bool)?
    var rollback: (() -> Void)?
}

// The hooks' context is the connection's `ConnectionHandle`, unretained: it owns the sqlite3*
// the hooks are registered on and unregisters them before closing it, and every statement that
// could fire one holds it, so a callback never reaches a freed object.
extension Connection {
    /// Calls `body` for every row a statement on this connection inserts, updates or deletes.
    ///
    /// The hook fires before commit and also for work later rolled back: pair it with the
    /// commit and rollback hooks. It misses rows deleted by `INSERT OR REPLACE` and by an
    /// unconditional `DELETE FROM t` on a table without triggers, and WITHOUT ROWID tables.
    /// `body` must not use the connection. Pass `nil` to remove the hook. The hook stays while
    /// a statement of this connection lives, even after the `Connection` object is gone.
    /// Related SQLite documentation: https://sqlite.org/c3ref/update_hook.html
    public func onUpdate(_ body: ((RowChange) -> Void)?) {
        database.hooks.update = body
        guard body != nil else { sqlite3_update_hook(handle, nil, nil); return }
        sqlite3_update_hook(handle, { context, operation, _, table, rowID in
            guard let context, let table else { return }
            let kind: RowChange.Operation = switch operation {
            case SQLITE_INSERT: .insert
            case SQLITE_DELETE: .delete
            default: .update
            }
            let database = Unmanaged<ConnectionHandle>.fromOpaque(context).takeUnretainedValue()
            database.hooks.update?(RowChange(operation: kind, table: String(cString: table), rowID: rowID))
        }, Unmanaged.passUnretained(database).toOpaque())
    }

    /// Calls `body` when a transaction is about to commit; returning `false` turns the commit
    /// into a rollback. `body` must not use the connection. Pass `nil` to remove the hook.
    /// Related SQLite documentation: https://sqlite.org/c3ref/commit_hook.html
    public func onCommit(_ body: (() -> Bool)?) {
        database.hooks.commit = body
        guard body != nil else { sqlite3_commit_hook(handle, nil, nil); return }
        sqlite3_commit_hook(handle, { context in
            guard let context else { return 0 }
            let database = Unmanaged<ConnectionHandle>.fromOpaque(context).takeUnretainedValue()
            return database.hooks.commit?() == false ? 1 : 0
        }, Unmanaged.passUnretained(database).toOpaque())
    }

    /// Calls `body` when a transaction rolls back (not for a savepoint's `ROLLBACK TO`).
    /// `body` must not use the connection. Pass `nil` to remove the hook.
    public func onRollback(_ body: (() -> Void)?) {
        database.hooks.rollback = body
        guard body != nil else { sqlite3_rollback_hook(handle, nil, nil); return }
        sqlite3_rollback_hook(handle, { context in
            guard let context else { return }
            let database = Unmanaged<ConnectionHandle>.fromOpaque(context).takeUnretainedValue()
            database.hooks.rollback?()
        }, Unmanaged.passUnretained(database).toOpaque())
    }
}

extension ConnectionHandle {
    /// Feeds `recording` every change made on this connection from now on, through the
    /// pre-update hook, which is installed with the first recording and removed with the last:
    /// a write with no recorder pays nothing for it.
    /// Related SQLite documentation: https://sqlite.org/c3ref/preupdate_count.html
    func startRecording(_ recording: ChangeRecording) {
        recordings.append(recording)
        isRecording = true
        guard recordings.count == 1 else { return }
        sqlite3_preupdate_hook(sqlite, { context, _, operation, database, table, _, _ in
            guard let context, let database, let table else { return }
            let handle = Unmanaged<ConnectionHandle>.fromOpaque(context).takeUnretainedValue()
            for recording in handle.recordings {
                recording.record(operation, database: database, table: table, on: handle)
            }
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    func stopRecording(_ recording: ChangeRecording) {
        recordings.removeAll { $0 === recording }
        isRecording = !recordings.isEmpty
        if recordings.isEmpty { sqlite3_preupdate_hook(sqlite, nil, nil) }
    }
}
