import CSQLite
import FoundationEssentials

/// Records every change made on a connection to some tables until `changeset()` is taken, in
/// the binary changeset format of SQLite's session extension. Tables need an explicit PRIMARY
/// KEY; others are ignored.
///
/// Why not the session extension itself: a session costs, on every command, a `PRAGMA
/// table_xinfo` for each table it first sees change and a `SELECT` per table when the
/// changeset is taken, each compiled anew (about 250k instructions for a one-row insert,
/// measured with callgrind: three times the insert). This recorder reads the pre-update hook
/// instead and keeps each row's values as the hook gives them, so it compiles nothing; what
/// it produces is what a session would (`ChangesetTests` compares the two on random work).
///
/// The recorder keeps its connection's database handle open (the hook lives on it), so it
/// works on after the `Connection` object is gone. A connection has one pre-update hook: the
/// recorders share it, and it is removed when the last of them goes, so writes made with no
/// recorder pay nothing. Do not create `sqlite3session` objects on a connection with a
/// recorder (the session extension takes the hook for itself). A `DELETE` without `WHERE` on a
/// table with no trigger, prepared while no recorder ran, empties the table without calling the
/// hook (SQLite chooses that when it prepares): every table the library records has triggers.
///
/// The hook does not report what SQLite undoes, so the recorder is rolled back with the work
/// where the library runs it: `Connection.transaction` and `savepoint`, a `Statement` that fails
/// (SQLite then undoes the whole statement), and `Changeset.apply`. A rollback it does not see
/// (`ROLLBACK TO` or `ROLLBACK` run as SQL, a statement of `execute` failing) leaves in its
/// changeset changes that were undone.
/// Related SQLite documentation: https://sqlite.org/c3ref/preupdate_count.html
public final class ChangeRecorder {
    private let recording: ChangeRecording
    /// Released after deinit has unregistered the recording, so the sqlite3* outlives it.
    private let database: ConnectionHandle

    /// Starts recording changes to `tables` of `connection`'s main database.
    public init(connection: Connection, tables: [String]) throws(SQLiteError) {
        database = connection.database
        recording = ChangeRecording(tables: tables)
        database.startRecording(recording)
    }

    deinit { database.stopRecording(recording) }

    /// Whether changes are being recorded (`true` from the start). While `false` the recorder
    /// takes up no new row, so bulk work it has no use for (an import's inserts, kept by their
    /// ids) costs it next to nothing; a row it already holds is still followed, so the
    /// changeset gives that row's values as they are when it is taken (as a session does).
    public var isEnabled: Bool {
        get { recording.isEnabled }
        set { recording.isEnabled = newValue }
    }

    /// The changes recorded so far, net: a row inserted then deleted leaves nothing, an update
    /// that puts every value back leaves nothing.
    public func changeset() throws(SQLiteError) -> Changeset {
        if let error = recording.error { throw error }
        return Changeset(data: recording.changeset())
    }
}

/// What one recorder holds: the tables it follows and their changes. The connection's
/// pre-update hook hands it every change (`ConnectionHandle.startRecording`).
final class ChangeRecording {
    var isEnabled = true
    /// The first failure (a table's layout that could not be read); `changeset()` throws it.
    private(set) var error: SQLiteError?
    private let tables: [RecordedTable]
    /// The hook events taken so far: their numbers name the journal's entries.
    private var events = 0
    /// The marks not yet released; while there are any, the tables journal their changes.
    private var openMarks = 0

    init(tables: [String]) {
        self.tables = tables.map(RecordedTable.init(name:))
    }

    /// Takes one change the pre-update hook reports.
    func record(_ operation: Int32, database: UnsafePointer<CChar>, table: UnsafePointer<CChar>, on handle: ConnectionHandle) {
        guard error == nil, sqlite3_stricmp(database, "main") == 0,
              let recorded = tables.first(where: { $0.isNamed(table) }) else { return }
        if !isEnabled && recorded.isEmpty { return }
        do {
            try recorded.record(operation, enabled: isEnabled, event: openMarks > 0 ? events : nil, on: handle)
        } catch {
            self.error = error
        }
        events += 1
    }

    /// Where the changes are now, for `rollBack(to:)`; journals every change until `release()`.
    func mark() -> Int {
        openMarks += 1
        return events
    }

    /// Undoes the changes made since `mark`, which SQLite rolled back.
    func rollBack(to mark: Int) {
        for table in tables { table.rollBack(toEvent: mark) }
    }

    /// Closes a mark; with the last one the journal goes.
    func release() {
        openMarks -= 1
        if openMarks == 0 { for table in tables { table.dropJournal() } }
    }

    /// Undoes every change: SQLite rolled back to before this recording began.
    func rollBackAll() {
        for table in tables { table.rollBackAll() }
    }

    /// The changes in changeset format, table by table in the order the recorder was given them.
    func changeset() -> Data {
        var bytes: [UInt8] = []
        for table in tables { table.write(into: &bytes) }
        return Data(bytes)
    }
}
