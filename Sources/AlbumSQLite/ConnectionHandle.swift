import CSQLite

/// The open `sqlite3*` of a connection, closed when the last object that uses it goes away.
///
/// `Connection`, every `Statement`, `Blob` and `ChangeRecorder` made from it hold this object
/// strongly, so the database handle outlives all of them: a statement kept after its
/// `Connection` still steps on an open handle instead of on freed memory. The hook closures
/// live here too, next to the handle whose callbacks reach them: whatever can step can only do
/// so while this object, and so the closures, are alive.
@usableFromInline
final class ConnectionHandle {
    @usableFromInline let sqlite: OpaquePointer
    /// The closures SQLite's hooks call; see `Hooks.swift`.
    var hooks = Hooks()
    /// The interruption the progress handler checks, while a read runs under one (`Interruption`).
    var interruption: Interruption?
    /// The change recorders the pre-update hook feeds, oldest first (see `startRecording`).
    var recordings: [ChangeRecording] = []
    /// Whether `recordings` has any: read on every step, so stored.
    @usableFromInline var isRecording = false
    /// The layouts of recorded tables, kept while their column counts stay.
    private var recordedLayouts: [String: RecordedLayout] = [:]

    init(_ sqlite: OpaquePointer) {
        self.sqlite = sqlite
    }

    deinit {
        // Nothing that could step is left (each holds this object), so no hook can fire during
        // the close; unregister them anyway so SQLite never keeps a pointer to this object.
        sqlite3_update_hook(sqlite, nil, nil)
        sqlite3_commit_hook(sqlite, nil, nil)
        sqlite3_rollback_hook(sqlite, nil, nil)
        sqlite3_preupdate_hook(sqlite, nil, nil)
        sqlite3_progress_handler(sqlite, 0, nil, nil)
        sqlite3_close_v2(sqlite)
    }

    /// The layout of `table` as a changeset records it, read once per connection and again
    /// when its column count changes (`RecordedTable` compares it with each change's).
    func recordedLayout(of table: String) throws(SQLiteError) -> RecordedLayout {
        let count = sqlite3_preupdate_count(sqlite)
        if let known = recordedLayouts[table], known.columnCount == count { return known }
        let layout = try RecordedLayout.read(table, on: sqlite)
        recordedLayouts[table] = layout
        return layout
    }
}
