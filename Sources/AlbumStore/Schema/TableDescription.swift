/// How the library's table-generic machinery (change log, observation, undo, ordering) treats
/// one table. A new table plugs in with one migration and one description in `all`; no
/// machinery names a table of its own.
internal import AlbumSQLite

struct TableDescription: Sendable, Hashable {
    /// What undo keeps of a command's changes to the table.
    enum Undo: Sendable, Hashable {
        /// Nothing: changes are navigation (session state), not edits.
        case none
        /// The rows' changes, recorded by SQLite's session extension.
        case changeset
    }

    let name: String
    let undo: Undo
    /// Whether changes are written to the change log and reach observers.
    let isObserved: Bool
    /// The column holding the gapped order key, for an ordered list.
    let orderColumn: String?

    static let albums = TableDescription(name: "albums", undo: .changeset, isObserved: true, orderColumn: "position")

    /// Every table the machinery serves.
    static let all: [TableDescription] = [albums]

    /// The 0-based number of `orderColumn` among the table's columns, as changesets number them;
    /// `nil` when the table is not ordered or does not exist.
    func orderColumnNumber(in connection: Connection) throws -> Int32? {
        guard let orderColumn else { return nil }
        return try connection.scalar("SELECT cid FROM pragma_table_info(?) WHERE name = ?", name, orderColumn)
    }

    static var undoable: [String] { all.filter { $0.undo == .changeset }.map(\.name) }
}
