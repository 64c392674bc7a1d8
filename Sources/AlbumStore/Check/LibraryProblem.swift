/// One thing `Library.check` found wrong with a library file.
///
/// `description` is one line, `area: message`, e.g.
/// `file: row 12 missing from index albums_position`.
public struct LibraryProblem: Sendable, Hashable, CustomStringConvertible {
    /// Which part of the file the problem is in, and so what fixes it.
    public enum Area: String, Sendable, Hashable, CaseIterable {
        /// SQLite's own structure (`PRAGMA integrity_check`): the file is damaged; restore a backup.
        case file
        /// A row refers to a missing row (`PRAGMA foreign_key_check`).
        case foreignKeys = "foreign keys"
        /// Not a library of this version, or its record of migrations disagrees with this binary.
        case schema
        /// The ordered list: a position key missing, not an integer, or shared.
        case albums
        /// The undo history: an entry that cannot be read back.
        case history
        /// The change log other processes read: numbering and pruning bounds.
        case changeLog = "change log"
        /// The generated change-log triggers: missing or edited; opening the library for
        /// writing reinstalls them.
        case triggers
    }

    /// The part of the file the problem is in.
    public var area: Area
    /// What is wrong, in one line, naming the table, row or index when there is one.
    public var message: String

    /// A problem in `area`, described by `message`.
    public init(_ area: Area, _ message: String) {
        self.area = area
        self.message = message
    }

    /// The problem in one line: `area: message`.
    public var description: String { "\(area.rawValue): \(message)" }
}
