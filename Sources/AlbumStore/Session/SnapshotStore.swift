import FoundationEssentials
internal import AlbumSQLite

/// The SQL of `session_snapshots`: snapshots kept in the library, their state as the snapshot
/// file's `state` object (compact JSON). A stored state another program wrote is checked as an
/// imported file would be.
enum SnapshotStore {
    static func snapshot(named name: String, in connection: Connection) throws -> Snapshot? {
        let row = try connection.first("SELECT taken_at, state FROM session_snapshots WHERE name = ?", name) { row in
            (try row[0, as: Int64?.self], try row[1, as: String?.self])
        }
        guard let (takenAt, text) = row else { return nil }
        return try snapshot(name: name, takenAt: takenAt, text: text)
    }

    /// Every snapshot, oldest first.
    static func all(in connection: Connection) throws -> [Snapshot] {
        let rows = try connection.query("SELECT name, taken_at, state FROM session_snapshots ORDER BY taken_at, id") { row in
            (try row[0, as: String?.self], try row[1, as: Int64?.self], try row[2, as: String?.self])
        }
        return try rows.compactMap { name, takenAt, text in try name.map { try snapshot(name: $0, takenAt: takenAt, text: text) } }
    }

    static func exists(_ name: String, in connection: Connection) throws -> Bool {
        try connection.scalar("SELECT 1 FROM session_snapshots WHERE name = ?", name, as: Int.self) != nil
    }

    static func insert(_ snapshot: Snapshot, in connection: Connection) throws {
        try connection.run(
            "INSERT INTO session_snapshots (name, taken_at, state) VALUES (?, ?, ?)",
            snapshot.name, ISO8601Timestamp.milliseconds(of: snapshot.takenAt),
            String(decoding: snapshot.state.json.jsonData, as: UTF8.self))
    }

    /// Deletes the snapshot; returns whether there was one.
    static func delete(named name: String, in connection: Connection) throws -> Bool {
        try connection.run("DELETE FROM session_snapshots WHERE name = ?", name)
        return connection.changes > 0
    }

    private static func snapshot(name: String, takenAt: Int64?, text: String?) throws -> Snapshot {
        let item = "snapshot \"\(name)\""
        guard let takenAt, let text else { throw SessionError.unreadableStoredValue(item: item, reason: "a NULL column") }
        do {
            let state = try SessionState(json: JSONShape(value: try JSONValue(parsing: Data(text.utf8)), place: "state"))
            return Snapshot(name: name, takenAt: Date(millisecondsSince1970: takenAt), state: state)
        } catch let error as JSONValue.SyntaxError {
            throw SessionError.unreadableStoredValue(item: item, reason: error.description)
        } catch let mismatch as JSONShape.Mismatch {
            throw SessionError.unreadableStoredValue(item: item, reason: "\(mismatch.place): \(mismatch.reason)")
        }
    }
}
