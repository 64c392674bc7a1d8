import FoundationEssentials
internal import AlbumSQLite

/// The SQL of the session tables (`Migrations/0008_session_state.sql`): reads and writes items
/// on a connection, inside the caller's transaction. Values are compact JSON with sorted keys;
/// a value another program stored is parsed and checked, never trusted.
enum SessionStore {
    /// The whole state.
    /// - Throws: `SessionError.unreadableStoredValue` for a value that is not what the item holds.
    static func state(in connection: Connection) throws -> SessionState {
        var state = SessionState()
        let builtIn = try connection.query("SELECT id, value FROM session_state") { row in
            (try row[0, as: Int64.self], try row[1, as: String?.self])
        }
        for (id, text) in builtIn {
            // A row another program added under an id of its own is not ours to read.
            guard let item = SessionItem.builtIn.first(where: { $0.rowID == id }) else { continue }
            try set(item, from: text, in: &state)
        }
        let keys = try connection.query("SELECT key, value FROM session_keys") { row in
            (try row[0, as: String?.self], try row[1, as: String?.self])
        }
        for case let (name?, text) in keys { try set(.key(name), from: text, in: &state) }
        return state
    }

    /// The saved current album alone (what reading it back needs), `nil` when none is saved.
    static func currentAlbum(in connection: Connection) throws -> CurrentAlbum? {
        guard let text = try storedText(of: .currentAlbum, in: connection) else { return nil }
        var state = SessionState()
        try set(.currentAlbum, from: text, in: &state)
        return state.currentAlbum
    }

    /// One item's value, `nil` when it has none.
    static func value(of item: SessionItem, in connection: Connection) throws -> JSONValue? {
        try storedText(of: item, in: connection).map { try parse($0, item: item) }
    }

    /// Whether `item` holds `value` already (`text` its JSON, `nil` for none). The stored text is
    /// compared first, and parsed only when it differs (another program may have written the
    /// same value otherwise); an unreadable stored value holds nothing.
    static func holds(_ value: JSONValue?, text: String?, for item: SessionItem, in connection: Connection) throws -> Bool {
        let stored = try storedText(of: item, in: connection)
        if stored == text { return true }
        guard let stored, let value else { return false }
        return (try? parse(stored, item: item)) == value
    }

    /// Stores `value` for `item` (`nil` removes it); unless `comparing` is false, only when it
    /// does not hold it already. Returns whether it wrote. Callers have checked `value`.
    @discardableResult
    static func write(_ value: JSONValue?, for item: SessionItem, comparing: Bool = true, in connection: Connection) throws -> Bool {
        let text = value?.description
        if comparing, try holds(value, text: text, for: item, in: connection) { return false }
        return try write(text: text, for: item, in: connection)
    }

    /// Stores `text`, a value's compact JSON, for `item` (`nil` removes it) without comparing.
    /// Returns whether it wrote.
    @discardableResult
    static func write(text: String?, for item: SessionItem, in connection: Connection) throws -> Bool {
        // An UPDATE, and an INSERT only when there was no row: not REPLACE, so a key keeps its
        // row id and observers see an update; not an upsert, whose INSERT half SQLite tries
        // first every time (the save of the current album is nearly always an update).
        switch (item, text) {
        case let (.key(name), text?):
            try connection.run("UPDATE session_keys SET value = ? WHERE key = ?", text, name)
            if connection.changes == 0 { try connection.run("INSERT INTO session_keys (key, value) VALUES (?, ?)", name, text) }
        case let (.key(name), nil):
            try connection.run("DELETE FROM session_keys WHERE key = ?", name)
        case let (_, text?):
            try connection.run("UPDATE session_state SET value = ? WHERE id = ?", text, item.rowID)
            if connection.changes == 0 {
                try connection.run("INSERT INTO session_state (id, item, value) VALUES (?, ?, ?)", item.rowID, item.builtInName, text)
            }
        case (_, nil):
            try connection.run("DELETE FROM session_state WHERE id = ?", item.rowID)
        }
        return connection.changes > 0
    }

    private static func storedText(of item: SessionItem, in connection: Connection) throws -> String? {
        switch item {
        case .key(let name): try connection.scalar("SELECT value FROM session_keys WHERE key = ?", name)
        default: try connection.scalar("SELECT value FROM session_state WHERE id = ?", item.rowID)
        }
    }

    /// Makes `items` of the stored state what they are in `state`; returns those that changed.
    static func write(_ state: SessionState, items: [SessionItem], in connection: Connection) throws -> [SessionItem] {
        try items.filter { try write(state[$0], for: $0, in: connection) }
    }

    private static func set(_ item: SessionItem, from text: String?, in state: inout SessionState) throws {
        guard let text else { throw SessionError.unreadableStoredValue(item: "\(item)", reason: "it is NULL") }
        let value = try parse(text, item: item)
        do {
            let shape = JSONShape(value: value, place: "")
            switch item {
            case .currentAlbum: state.currentAlbum = try SessionState.currentAlbum(shape)
            case .tabOrder: state.tabOrder = try SessionState.tabs(shape)
            case .defaultTabOrder: state.defaultTabOrder = try SessionState.tabs(shape)
            case let .key(name): state.keys[name] = value
            }
        } catch let mismatch as JSONShape.Mismatch {
            let place = mismatch.place.isEmpty ? "" : "\(mismatch.place): "
            throw SessionError.unreadableStoredValue(item: "\(item)", reason: place + mismatch.reason)
        }
    }

    private static func parse(_ text: String, item: SessionItem) throws -> JSONValue {
        do {
            return try JSONValue(parsing: Data(text.utf8))
        } catch let error as JSONValue.SyntaxError {
            throw SessionError.unreadableStoredValue(item: "\(item)", reason: error.description)
        }
    }
}
