import FoundationEssentials
internal import AlbumSQLite

extension Session {
    /// Takes a snapshot of the whole state, named `name` or, when `nil`, `snapshot-` and the
    /// time (`snapshot-2026-11-22T08:15:03Z`, with `-2`, `-3`... if that is taken). Taking a
    /// snapshot is not an undoable command.
    /// - Throws: `SessionError.snapshotExists`, `.invalidSnapshotName`; nothing changes then.
    @discardableResult
    public func takeSnapshot(named name: String? = nil, at date: Date = Date()) throws -> Snapshot {
        if let name { try checkNewName(name) }
        // Kept to the millisecond: the snapshot returned is the one read back later.
        let date = Date(millisecondsSince1970: ISO8601Timestamp.milliseconds(of: date))
        return try library.navigate { command in
            let connection = command.connection
            let snapshot = Snapshot(
                name: try name ?? uniqueDefaultName(at: date, in: connection), takenAt: date,
                state: try SessionStore.state(in: connection))
            if try SnapshotStore.exists(snapshot.name, in: connection) { throw SessionError.snapshotExists(snapshot.name) }
            try SnapshotStore.insert(snapshot, in: connection)
            return snapshot
        }
    }

    /// Every snapshot, oldest first.
    public func snapshots() throws -> [Snapshot] {
        try library.read { try SnapshotStore.all(in: $0) }
    }

    /// The snapshot named `name`. - Throws: `SessionError.noSuchSnapshot`.
    public func snapshot(named name: String) throws -> Snapshot {
        guard let snapshot = try library.read({ try SnapshotStore.snapshot(named: name, in: $0) }) else {
            throw SessionError.noSuchSnapshot(name)
        }
        return snapshot
    }

    /// What differs from snapshot `before` to snapshot `after`, or to the state now when `after`
    /// is `nil`. - Throws: `SessionError.noSuchSnapshot`.
    public func differences(from before: String, to after: String? = nil) throws -> [SessionDifference] {
        let old = try snapshot(named: before).state
        let new = try after.map { try snapshot(named: $0).state } ?? state()
        return SessionDifference.between(old, new)
    }

    /// Restores the snapshot `name`, or only the items in `only`, atomically, as one undoable
    /// command (`Library.undo()` puts the state back). Only items whose values change are
    /// written, so observers hear of those alone; a key the snapshot lacks is removed. When the
    /// snapshot's current album no longer exists, the result says so (`isSavedAlbum` false) and
    /// the index is clamped.
    /// - Throws: `SessionError.noSuchSnapshot`; nothing changes then.
    @discardableResult
    public func restoreSnapshot(named name: String, only: Set<SessionItem>? = nil) throws -> SessionRestore {
        try requireSnapshot(named: name)
        let changed = try library.perform(recording: TableDescription.restorable) { command in
            let connection = command.connection
            guard let snapshot = try SnapshotStore.snapshot(named: name, in: connection) else {
                throw SessionError.noSuchSnapshot(name)
            }
            let items: [SessionItem]
            if let only {
                items = Array(only)
            } else {
                items = Array(Set(try SessionStore.state(in: connection).items + snapshot.state.items + SessionItem.builtIn))
            }
            let changed = try SessionStore.write(snapshot.state, items: items.sorted(), in: connection)
            return (changed, "restore snapshot “\(name)”")
        }
        return SessionRestore(name: name, changed: changed, currentAlbum: try currentAlbum())
    }

    /// Deletes the snapshot `name` (not undoable). - Throws: `SessionError.noSuchSnapshot`.
    public func deleteSnapshot(named name: String) throws {
        try requireSnapshot(named: name)
        let deleted = try library.navigate { try SnapshotStore.delete(named: name, in: $0.connection) }
        if !deleted { throw SessionError.noSuchSnapshot(name) }
    }

    /// The snapshot `name` in the snapshot file format (`SnapshotFile`), for a file or a pipe.
    public func exportSnapshot(named name: String, exportedAt: Date = Date()) throws -> Data {
        SnapshotFile.data(for: try snapshot(named: name), exportedAt: exportedAt)
    }

    /// Adds the snapshot a file holds (`SnapshotFile.snapshot(from:source:)` reads it), under
    /// `name` when given, else its own. `source` names the file in errors.
    /// - Throws: `SessionError.badSnapshotFile`, `.snapshotExists`; nothing changes then.
    @discardableResult
    public func importSnapshot(from data: Data, source: String, as name: String? = nil) throws -> Snapshot {
        var snapshot = try SnapshotFile.snapshot(from: data, source: source)
        return try add(&snapshot, as: name)
    }

    /// `importSnapshot(from:source:as:)` reading the file at `url` (at most `SnapshotFile.maxBytes`).
    @discardableResult
    public func importSnapshot(contentsOf url: URL, as name: String? = nil) throws -> Snapshot {
        var snapshot = try SnapshotFile.snapshot(contentsOf: url)
        return try add(&snapshot, as: name)
    }

    /// `importSnapshot(from:source:as:)` reading `file` (a pipe, stdin) to its end.
    @discardableResult
    package func importSnapshot(reading file: OpenFile, source: String, as name: String? = nil) throws -> Snapshot {
        var snapshot = try SnapshotFile.snapshot(reading: file, source: source)
        return try add(&snapshot, as: name)
    }

    private func add(_ snapshot: inout Snapshot, as name: String?) throws -> Snapshot {
        if let name { snapshot.name = name }
        try checkNewName(snapshot.name)
        let added = snapshot
        try library.navigate { command in
            if try SnapshotStore.exists(added.name, in: command.connection) { throw SessionError.snapshotExists(added.name) }
            try SnapshotStore.insert(added, in: command.connection)
        }
        return added
    }

    /// Refuses a missing snapshot before the write lock is taken (without reading its state).
    private func requireSnapshot(named name: String) throws {
        if try !library.read({ try SnapshotStore.exists(name, in: $0) }) { throw SessionError.noSuchSnapshot(name) }
    }

    private func checkNewName(_ name: String) throws {
        if let problem = Snapshot.problem(inName: name) { throw SessionError.invalidSnapshotName(name, reason: problem) }
        if try library.read({ try SnapshotStore.exists(name, in: $0) }) { throw SessionError.snapshotExists(name) }
    }

    private func uniqueDefaultName(at date: Date, in connection: Connection) throws -> String {
        let base = Snapshot.defaultName(at: date)
        var name = base
        var number = 1
        while try SnapshotStore.exists(name, in: connection) {
            number += 1
            name = "\(base)-\(number)"
        }
        return name
    }
}
