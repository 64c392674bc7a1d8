import FoundationEssentials
internal import AlbumSQLite

extension Library {
    /// The session state: current album, tab order, the app's keys, and snapshots of them.
    public var session: Session { Session(library: self) }
}

/// Session state, what an app keeps between launches: the album the user was looking at, the
/// order of the tabs, and small values under string keys.
///
/// Each change is one committed transaction and one change set for observers (tables
/// `session_state`, rows by `SessionItem.rowID`, and `session_keys`). Saving state is
/// navigation, not an edit: it takes no undo step. Saving a value equal to the stored one
/// writes nothing. Reads run on reader connections; input is checked before the write lock is
/// taken, so a refusal costs no transaction (but for the album of `setCurrentAlbum`, found
/// under the lock: see `save`). Snapshots: see `takeSnapshot(named:)`.
public struct Session: Sendable {
    let library: Library

    /// The whole saved state.
    public func state() throws -> SessionState {
        try library.read { try SessionStore.state(in: $0) }
    }

    // MARK: Current album

    /// The saved current album read back against the list now: the same album when it still
    /// exists, wherever it moved; else the saved index clamped to the list (past the end the last
    /// album, negative the first). `nil` when none is saved or the library is empty.
    public func currentAlbum() throws -> ResolvedCurrentAlbum? {
        guard let saved = try library.read({ try SessionStore.currentAlbum(in: $0) }) else { return nil }
        return try resolve(saved)
    }

    /// Saves the album at `index` (-1 is the last) as the current album, with its id.
    /// - Throws: `AlbumError.indexOutOfRange` (also for an empty library); nothing changes then.
    @discardableResult
    public func setCurrentAlbum(at index: Int) throws -> CurrentAlbum {
        try save { command in
            let order = try command.order()
            // The id from the position index alone: the album's row is not read.
            let id = try AlbumRepository.id(at: index)(command.connection, order)
            // A negative index counts from the end: keep the place it names.
            return CurrentAlbum(index: index >= 0 ? index : order.count + index, albumID: id)
        }
    }

    /// Saves the album with `id` as the current album, with its index now.
    /// - Throws: `AlbumError.notFound`; nothing changes then.
    @discardableResult
    public func setCurrentAlbum(id: Album.ID) throws -> CurrentAlbum {
        try save { command in
            CurrentAlbum(index: try AlbumRepository.index(of: id)(command.connection, try command.order()), albumID: id)
        }
    }

    /// Forgets the current album.
    public func clearCurrentAlbum() throws {
        try navigate(.currentAlbum, to: nil)
    }

    /// Finds the album and saves it in one write transaction, so the index and the id agree
    /// with each other whatever another process does. Unlike other commands, a missing album
    /// is found under the write lock, and its refusal rolls the transaction back (the file is
    /// left as it was): a look first, on a reader, would cost as much again as the save. The
    /// stored value is not compared first either: it changes with nearly every save.
    private func save(_ find: (Command) throws -> CurrentAlbum) throws -> CurrentAlbum {
        try library.navigate { command in
            let current = try find(command)
            try SessionStore.write(text: current.jsonText, for: .currentAlbum, in: command.connection)
            return current
        }
    }

    func resolve(_ saved: CurrentAlbum) throws -> ResolvedCurrentAlbum? {
        let albums = library.albums
        if let id = saved.albumID, try albums.album(id: id) != nil {
            do {
                let index = try albums.index(of: id)
                return ResolvedCurrentAlbum(album: try albums.album(at: index), index: index, saved: saved, isSavedAlbum: true)
            } catch AlbumError.notFound, AlbumError.indexOutOfRange {
                // Deleted, or the list changed, between the reads: fall back to the index.
            }
        }
        guard let index = CurrentAlbum.clamped(saved.index, count: try albums.count()) else { return nil }
        do {
            return ResolvedCurrentAlbum(album: try albums.album(at: index), index: index, saved: saved, isSavedAlbum: false)
        } catch AlbumError.indexOutOfRange {
            return nil   // emptied between the reads
        }
    }

    // MARK: Tab order

    /// The tab order in effect: the saved one, else the default one (empty when none is set).
    public func tabOrder() throws -> [String] {
        try state().effectiveTabOrder
    }

    /// Saves the tab order. Saving the order already saved writes nothing (no transaction, and
    /// no change set) and returns `false`.
    /// - Throws: `SessionError.invalidTabOrder` for an order with no tab, or an identifier that is
    ///   empty, padded with white space, or repeated (canonically equal to another); nothing
    ///   changes then. (`resetTabOrder()` shows the default order again.)
    @discardableResult
    public func setTabOrder(_ tabs: [String]) throws -> Bool {
        try saveTabs(tabs, as: .tabOrder)
    }

    /// Sets the default tab order, which applies while no order is saved; like `setTabOrder`,
    /// an unchanged one writes nothing and returns `false`.
    @discardableResult
    public func setDefaultTabOrder(_ tabs: [String]) throws -> Bool {
        try saveTabs(tabs, as: .defaultTabOrder)
    }

    /// Forgets the saved tab order: the default applies again.
    public func resetTabOrder() throws {
        try navigate(.tabOrder, to: nil)
    }

    private func saveTabs(_ tabs: [String], as item: SessionItem) throws -> Bool {
        if let problem = TabOrder.problem(in: tabs) { throw SessionError.invalidTabOrder(reason: problem) }
        return try navigate(item, to: TabOrder.json(tabs))
    }

    // MARK: Keys

    /// The value saved under `key`, decoded from its JSON; `nil` when none is, and when the saved
    /// value is `nil` (JSON `null`, what saving an optional that is `nil` stores).
    /// - Throws: `DecodingError` when the saved JSON is not a `T` (another program may have saved
    ///   something else under the key); `StorageError`.
    public func value<T: Decodable>(_ type: T.Type = T.self, forKey key: String) throws -> T? {
        guard let value = try value(forKey: key), value != .null else { return nil }
        return try value.decoded(as: type)
    }

    /// The JSON value saved under `key`, `nil` when none is.
    package func value(forKey key: String) throws -> JSONValue? {
        try library.read { try SessionStore.value(of: .key(key), in: $0) }
    }

    /// Saves `value` under `key`; an unchanged value writes nothing and returns `false`.
    /// - Throws: `SessionError.invalidKey` for an empty or overlong key, or a value over
    ///   64 KiB of JSON.
    @discardableResult
    public func setValue<T: Encodable>(_ value: T, forKey key: String) throws -> Bool {
        try setValue(try JSONValue(encoding: value), forKey: key)
    }

    /// `setValue(_:forKey:)` for a value that is JSON already.
    @discardableResult
    package func setValue(_ value: JSONValue, forKey key: String) throws -> Bool {
        if let problem = SessionKey.problem(inName: key) ?? SessionKey.problem(inValue: value) {
            throw SessionError.invalidKey(key, reason: problem)
        }
        return try navigate(.key(key), to: value)
    }

    /// Removes `key`; returns whether it was there.
    @discardableResult
    public func removeValue(forKey key: String) throws -> Bool {
        try navigate(.key(key), to: nil)
    }

    // MARK: Writing

    /// Writes one item, as navigation: no undo step. The stored value is compared first on a
    /// reader, so an unchanged save takes no write lock and makes no transaction; the write
    /// compares again under the lock (another process may have changed it meanwhile).
    @discardableResult
    private func navigate(_ item: SessionItem, to value: JSONValue?) throws -> Bool {
        let text = value?.description
        if try library.read({ try SessionStore.holds(value, text: text, for: item, in: $0) }) { return false }
        return try library.navigate { try SessionStore.write(value, for: item, in: $0.connection) }
    }
}
