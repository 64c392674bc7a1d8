import CSQLite
import Foundation

/// Records, with SQLite's session extension, every change made on a connection to some tables
/// until `changeset()` is taken. Tables need an explicit PRIMARY KEY; others are ignored.
///
/// The recorder keeps its connection's database handle open (the session points into it), so it
/// works on after the `Connection` object is gone.
public final class ChangeRecorder {
    private let session: OpaquePointer
    /// Released after deinit has deleted the session, so the sqlite3* outlives it.
    private let database: ConnectionHandle

    /// Starts recording changes to `tables` of `connection`'s main database.
    public init(connection: Connection, tables: [String]) throws(SQLiteError) {
        database = connection.database
        var session: OpaquePointer?
        let code = sqlite3session_create(database.sqlite, "main", &session)
        guard code == SQLITE_OK, let session else { throw SQLiteError(code: code, connection: database.sqlite) }
        self.session = session
        for table in tables {
            // On failure deinit deletes the session: self is fully initialized by now.
            try check(sqlite3session_attach(session, table), database.sqlite)
        }
    }

    deinit { sqlite3session_delete(session) }

    /// Whether changes are being recorded (`true` from the start). While `false` the session
    /// records nothing, so bulk work it has no use for (an import's inserts, kept by their ids)
    /// costs it next to nothing. The changeset still gives a recorded row's values as they are
    /// when it is taken.
    /// Related SQLite documentation: https://sqlite.org/session/sqlite3session_enable.html
    public var isEnabled: Bool {
        get { sqlite3session_enable(session, -1) != 0 }
        set { sqlite3session_enable(session, newValue ? 1 : 0) }
    }

    /// The changes recorded so far, net: a row inserted then deleted leaves nothing.
    public func changeset() throws(SQLiteError) -> Changeset {
        var count: Int32 = 0
        var buffer: UnsafeMutableRawPointer?
        try check(sqlite3session_changeset(session, &count, &buffer), nil)
        defer { sqlite3_free(buffer) }
        return Changeset(data: buffer.map { Data(bytes: $0, count: Int(count)) } ?? Data())
    }
}
