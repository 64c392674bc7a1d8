/// Why an import changed nothing.
public enum ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The source cannot be read on (an I/O error, a JSON or XML syntax error, no format
    /// recognised): `file`, the 1-based `line` (0 when not in the file), and why.
    case unreadable(file: String, line: Int, reason: String)
    /// Rows were invalid and the import is atomic (`InvalidRowPolicy.rejectFile`): `summary`
    /// counts every rejection and carries the first 20 (all went to the rejects file, if one
    /// was given).
    case invalidRows(ImportSummary)
    /// An album of the file is already in the library (or earlier in the file) under
    /// `ConflictPolicy.fail`: `rejection` says where, and `existing` is the stored album's id
    /// (`nil` when it is an earlier row of the file, not yet stored).
    case conflict(ImportRejection, existing: Album.ID?)

    /// The refusal in one line, starting with the file (and line, when there is one).
    public var description: String {
        switch self {
        case let .unreadable(file, line, reason):
            line > 0 ? "\(file):\(line): \(reason)" : "\(file): \(reason)"
        case let .invalidRows(summary):
            "\(summary.file): import refused, nothing changed: \(summary.rejected) invalid "
                + (summary.rejected == 1 ? "row" : "rows")
        case let .conflict(rejection, _):
            "\(rejection); import refused, nothing changed"
        }
    }
}
