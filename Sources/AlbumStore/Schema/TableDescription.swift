internal import AlbumSQLite

/// How the library's table-generic machinery (change log, observation, undo, ordering) treats
/// one table. A new table plugs in with one migration (the table) and one description in `all`;
/// no machinery names a table of its own:
///
/// - observed: its change-log triggers are generated from the description and installed at
///   open (`ChangeLogTriggers`, `ChangeLogTriggerInstaller`), so its changes reach
///   `library.changes`, `observe` and `ChangeFeed`;
/// - undo: commands record its changes (`undoable`, read by `Library.perform`);
/// - ordered: its order statistics (`Order`) are kept by triggers generated from the description
///   (`OrderStatisticsTriggers`) and read by `OrderStatistics`.
///
/// Coming tables, as they are meant to be described (not built yet): session state, observed
/// with `undo: .none`; covers, observed and undoable, with undo keeping a content hash rather
/// than the image bytes (see `Undo`).
struct TableDescription: Sendable, Hashable {
    /// What undo keeps of a command's changes to the table.
    enum Undo: Sendable, Hashable {
        /// Nothing: changes are navigation, not edits. Session state (the current album, the
        /// tab order) will be observed but take no undo step: going back to an album is not a
        /// command to undo.
        case none
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
    /// How an ordered list keeps its order; `nil` for a table that is not one.
    let order: Order?

    /// An ordered list's gapped order key and the tables of its order statistics, as its
    /// migrations create them.
    struct Order: Sendable, Hashable {
        /// The column holding the gapped order key.
        let column: String
        /// Blocks of consecutive keys with their counts (`first`, `count`; see `OrderBlocks`).
        let blocks: String
        /// One row: the schema version at which the counts were last known right.
        let checked: String

        /// The albums' order (migrations 0001 and 0006).
        static let albums = Order(column: "position", blocks: "album_blocks", checked: "album_blocks_checked")
    }

    static let albums = TableDescription(
        name: "albums", undo: .changeset, isObserved: true,
        order: .albums)

    /// Every table the machinery serves: the change-log triggers and undo recording are driven
    /// from this list.
    static let all: [TableDescription] = [albums]

    /// The tables whose changes commands record for undo.
    static var undoable: [String] { all.filter { $0.undo == .changeset }.map(\.name) }
}
