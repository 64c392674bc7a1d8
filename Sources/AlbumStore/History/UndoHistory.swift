import FoundationEssentials
internal import AlbumSQLite

/// The persistent undo and redo stacks (table `history`), bounded to `limit` commands.
///
/// Why changesets rather than an undo log written by triggers: the recorder (`ChangeRecorder`,
/// on the pre-update hook) sees every change to the tracked tables whatever statement made it,
/// nets repeated changes to one row, and `sqlite3changeset_invert` gives the undo for free; applying checks each row is as
/// the command left it, so undo never silently overwrites a change made behind its back. Tables
/// join undo by being tracked, with no triggers to keep in sync. The cost is the changeset's
/// size (and the recorder's time) for bulk work: a bulk append is therefore kept as its ids, and
/// its changeset is recorded only if it is undone.
struct UndoHistory: Sendable {
    /// How many commands are kept; older ones can no longer be undone.
    let limit: Int

    /// Records a new command: the redo stack is dropped and the oldest entries past `limit` go.
    func record(_ changeset: Changeset, description: String, in connection: Connection) throws {
        try add(description, changeset: changeset, appended: nil, in: connection)
    }

    /// Records a bulk append of albums by their ids, without a changeset of the inserts: one is
    /// made from the deletion if the append is ever undone. `updates` holds what the same
    /// command changed in place (an import's updated duplicates), recorded as usual.
    func recordAppend(_ ids: RowIDs, updates: Changeset = Changeset(data: Data()), description: String,
                      in connection: Connection) throws {
        try add(description, changeset: updates, appended: ids, in: connection)
    }

    private func add(_ description: String, changeset: Changeset, appended: RowIDs?, in connection: Connection) throws {
        try connection.run(
            "INSERT INTO history (description, changeset, appended_ids, created_at) VALUES (?, ?, ?, ?)",
            description, changeset.data, appended?.rangeList, Date().millisecondsSince1970)
        // One statement for both: the redo stack, and what is past the limit counting back from
        // the new entry (the newest id).
        try connection.run("""
            DELETE FROM history WHERE undone = 1
                OR id <= (SELECT id FROM history WHERE undone = 0 ORDER BY id DESC LIMIT 1 OFFSET ?)
            """, limit)
    }

    /// Undoes the newest command not yet undone; returns it and the changes made (`nil` for a
    /// bulk append: too many rows to list).
    func undo(in connection: Connection) throws -> (HistoryEntry, Changeset?) {
        guard let (entry, changeset, appended) = try top(undone: false, in: connection) else {
            throw HistoryError.nothingToUndo
        }
        try Self.requireReadable(changeset, of: entry)
        if let appended { return (entry, try undoAppend(entry, ids: appended, updates: changeset, in: connection)) }
        return (entry, try replay(try changeset.inverted(), of: entry, undone: true, in: connection))
    }

    /// Whether there is a command to undo.
    func canUndo(in connection: Connection) throws -> Bool {
        try connection.scalar("SELECT 1 FROM history WHERE undone = 0 LIMIT 1", as: Int.self) != nil
    }

    /// Whether the history holds as many commands as it keeps: when all are undone, older
    /// commands may have been dropped, and undo has reached the bound rather than the start.
    func isFull(in connection: Connection) throws -> Bool {
        try connection.scalar("SELECT count(*) FROM history", as: Int.self) ?? 0 >= limit
    }

    /// Whether there is an undone command to redo.
    func canRedo(in connection: Connection) throws -> Bool {
        try connection.scalar("SELECT 1 FROM history WHERE undone = 1 LIMIT 1", as: Int.self) != nil
    }

    /// Redoes the most recently undone command; returns it and the changes made.
    func redo(in connection: Connection) throws -> (HistoryEntry, Changeset?) {
        guard let (entry, changeset, _) = try top(undone: true, in: connection) else { throw HistoryError.nothingToRedo }
        try Self.requireReadable(changeset, of: entry)
        return (entry, try replay(changeset, of: entry, undone: false, in: connection))
    }

    /// Refuses an entry whose stored changeset is malformed (another program wrote it) before
    /// SQLite reads it: some malformed changesets make SQLite 3.40 loop forever (`ChangesetFormat`).
    private static func requireReadable(_ changeset: Changeset, of entry: HistoryEntry) throws {
        if let problem = ChangesetFormat.problem(in: changeset.data) {
            throw HistoryError.conflict(command: entry.description, reason: "its recorded changes cannot be read (\(problem))")
        }
    }

    /// Reverts a bulk append's in-place `updates` (an import's), then deletes its albums,
    /// recording both: their inverse becomes the entry's changeset, so redo and later undos work
    /// as for any command.
    private func undoAppend(_ entry: HistoryEntry, ids: RowIDs, updates: Changeset, in connection: Connection) throws -> Changeset? {
        let recorder = try ChangeRecorder(connection: connection, tables: TableDescription.undoable)
        // The updates first: a row the command inserted and then updated (a file holding the
        // same album twice) goes back to its inserted values, then goes.
        if !updates.isEmpty {
            do {
                try updates.inverted().apply(to: connection)
            } catch {
                throw HistoryError.conflict(command: entry.description, reason: error.message)
            }
        }
        _ = try ChangeLog.bulk(.delete, .albums, in: connection) {
            for range in ids.ranges {
                try connection.run("DELETE FROM albums WHERE id BETWEEN ? AND ?", range.lowerBound, range.upperBound)
            }
            return ids
        }
        try connection.run(
            "UPDATE history SET undone = 1, changeset = ?, appended_ids = NULL WHERE id = ?",
            try recorder.changeset().inverted().data, entry.id)
        return nil
    }

    /// Forgets the newest command not undone, without undoing it, and returns it: the command
    /// before it becomes the next to undo. The redo stack stays (its commands were undone after
    /// this one ran, so the rows are as they expect).
    func dropNewest(in connection: Connection) throws -> HistoryEntry {
        guard let (entry, _, _) = try top(undone: false, in: connection) else { throw HistoryError.nothingToUndo }
        try connection.run("DELETE FROM history WHERE id = ?", entry.id)
        return entry
    }

    /// Forgets every command, done and undone; returns how many there were.
    func dropAll(in connection: Connection) throws -> Int {
        try connection.run("DELETE FROM history")
        return connection.changes
    }

    /// Every entry, oldest first.
    func entries(in connection: Connection) throws -> [HistoryEntry] {
        try connection.query("SELECT id, description, created_at, undone FROM history ORDER BY id") {
            HistoryEntry(id: try $0[0], description: try $0[1],
                         date: Date(millisecondsSince1970: try $0[2]), isUndone: try $0[3])
        }
    }

    private func replay(_ changeset: Changeset, of entry: HistoryEntry, undone: Bool, in connection: Connection) throws -> Changeset {
        do {
            try changeset.apply(to: connection)
        } catch {
            throw HistoryError.conflict(command: entry.description, reason: error.message)
        }
        try connection.run("UPDATE history SET undone = ? WHERE id = ?", undone, entry.id)
        return changeset
    }

    /// The top of the undo stack (newest done entry) or of the redo stack (oldest undone entry),
    /// with its changeset and, for a bulk append not yet undone, its ids.
    private func top(undone: Bool, in connection: Connection) throws -> (HistoryEntry, Changeset, RowIDs?)? {
        let order = undone ? "ASC" : "DESC"
        return try connection.first("""
            SELECT id, description, created_at, undone, changeset, appended_ids
            FROM history WHERE undone = ? ORDER BY id \(order) LIMIT 1
            """, undone
        ) { row in
            (HistoryEntry(id: try row[0], description: try row[1],
                          date: Date(millisecondsSince1970: try row[2]), isUndone: try row[3]),
             Changeset(data: try row[4]),
             try row[5, as: String?.self].flatMap(RowIDs.init(rangeList:)))
        }
    }
}
