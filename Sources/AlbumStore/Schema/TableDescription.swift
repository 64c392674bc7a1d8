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
/// Session state is observed and navigation (`undo: .restores`); its snapshots are observed and
/// take no undo step. Covers are observed and undoable: the `covers` table keeps each album's
/// content hash, not the image bytes (see `Undo`).
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
        /// The rows' changes, as a changeset (`ChangeRecorder`).
        case changeset
        // Covers need no case of their own: the `covers` table holds only each album's content
        // hash (the bytes live in `cover_images`, which is not recorded), so its changeset
        // already keeps the hash rather than a copy of the image.
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
        /// One row: the sum of the counts (migration 0010), so a count is one read, not a sum.
        let total: String

        /// The albums' order (migrations 0001 and 0006).
        static let albums = Order(
            column: "position", blocks: "album_blocks", checked: "album_blocks_checked", total: "album_blocks_total")
    }

    static let albums = TableDescription(
        name: "albums", undo: .changeset, isObserved: true,
        order: .albums)
    /// Which image each album shows, by content hash (`Migrations/0009_covers.sql`).
    static let covers = TableDescription(name: "covers", undo: .changeset, isObserved: true, order: nil)
    /// What a music folder gave each album made from it (`Migrations/0013_music_folders.sql`).
    static let albumFolders = TableDescription(name: "album_folders", undo: .changeset, isObserved: false, order: nil)
    /// The audio files a folder import read, and their tags: a cache of what the files say, which
    /// undo leaves alone (the files do not change back). A rescan derives the albums from it and
    /// finds them by `album_folders`, which undo restores; recording it would keep a copy of every
    /// file's tags in memory during a scan and in the history after it.
    static let folderFiles = TableDescription(name: "folder_files", undo: .none, isObserved: false, order: nil)
    static let sessionState = TableDescription(name: "session_state", undo: .restores, isObserved: true, order: nil)
    static let sessionKeys = TableDescription(name: "session_keys", undo: .restores, isObserved: true, order: nil)
    static let sessionSnapshots = TableDescription(name: "session_snapshots", undo: .none, isObserved: true, order: nil)

    /// Every table the machinery serves: the change-log triggers and undo recording are driven
    /// from this list. The tables an album's delete trigger empties (`covers`, `album_folders`,
    /// `folder_files`) come first: a changeset lists tables in this order, and redoing an album's
    /// deletion must remove their rows before the album (whose trigger would remove them first
    /// and make the recorded deletions conflicts).
    static let all: [TableDescription] = [
        covers, albumFolders, folderFiles, albums, sessionState, sessionKeys, sessionSnapshots,
    ]

    /// Whether navigation writes (`Library.navigate`: session state, snapshots) change it: its
    /// change-log triggers then give each entry a transaction number of its own
    /// (`ChangeLogTriggers.numbersEachEntry`).
    var isNavigation: Bool { undo != .changeset }

    /// The tables whose changes commands record for undo.
    static var undoable: [String] { all.filter { $0.undo == .changeset }.map(\.name) }

    /// The tables a restore of saved state records for undo: the undoable ones and navigation.
    static var restorable: [String] { all.filter { $0.undo != .none }.map(\.name) }
}
