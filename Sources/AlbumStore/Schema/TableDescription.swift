internal import AlbumSQLite

/// How the library's table-generic machinery (change log, observation, undo, ordering) treats
/// one table. A new table plugs in with one migration (the table) and one description in `all`;
/// no machinery names a table of its own:
///
/// - observed: its change-log triggers are generated from the description and installed at
///   open (`ChangeLogTriggers`, `ChangeLogTriggerInstaller`), so its changes reach
///   `library.changes`, `observe` and `ChangeFeed`;
/// - undo: commands record its changes (`undoable`, read by `Library.perform`);
/// - ordered: the order index finds its position column by name (`orderColumnNumber`).
///
/// Session state is observed and navigation (`undo: .restores`); its snapshots are observed and
/// take no undo step. Coming: covers, observed and undoable, with undo keeping a content hash
/// rather than the image bytes (see `Undo`).
struct TableDescription: Sendable, Hashable {
    /// What undo keeps of a command's changes to the table.
    enum Undo: Sendable, Hashable {
        /// Nothing: the table's changes are never undone (session snapshots: taking or deleting
        /// one is bookkeeping, not an edit).
        case none
        /// Navigation: plain changes (the current album, the tab order) take no undo step, since
        /// going back to an album is not a command to undo; but a command that puts saved state
        /// back (restoring a snapshot) records its changes, so the restore can be undone.
        case restores
        /// The rows' changes, recorded by SQLite's session extension.
        case changeset
        // Room for covers: a case whose changes are recorded with the image reduced to its content
        // hash (identical images are stored once, by hash), so the history does not grow by a
        // copy of every image. It comes with the covers issue; `undoable` then picks the
        // recording by case.
    }

    /// The table's name, as its migration creates it.
    let name: String
    let undo: Undo
    /// Whether changes are written to the change log (by triggers generated from this
    /// description) and reach observers.
    let isObserved: Bool
    /// The column holding the gapped order key, for an ordered list.
    let orderColumn: String?

    static let albums = TableDescription(name: "albums", undo: .changeset, isObserved: true, orderColumn: "position")
    static let sessionState = TableDescription(name: "session_state", undo: .restores, isObserved: true, orderColumn: nil)
    static let sessionKeys = TableDescription(name: "session_keys", undo: .restores, isObserved: true, orderColumn: nil)
    static let sessionSnapshots = TableDescription(name: "session_snapshots", undo: .none, isObserved: true, orderColumn: nil)

    /// Every table the machinery serves: the change-log triggers and undo recording are driven
    /// from this list.
    static let all: [TableDescription] = [albums, sessionState, sessionKeys, sessionSnapshots]

    /// The 0-based number of `orderColumn` among the table's columns, as changesets number them;
    /// `nil` when the table is not ordered or does not exist.
    func orderColumnNumber(in connection: Connection) throws -> Int32? {
        guard let orderColumn else { return nil }
        return try connection.scalar("SELECT cid FROM pragma_table_info(?) WHERE name = ?", name, orderColumn)
    }

    /// The tables whose changes commands record for undo.
    static var undoable: [String] { all.filter { $0.undo == .changeset }.map(\.name) }

    /// The tables a restore of saved state records for undo: the undoable ones and navigation.
    static var restorable: [String] { all.filter { $0.undo != .none }.map(\.name) }
}
