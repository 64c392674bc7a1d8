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
    /// No column of a CSV or TSV header maps to the `fields` every album needs (title, artist),
    /// found before any row was read: the file's `columns` as read, and those of them that map
    /// to no field (`unmapped`), in order.
    case missingFields(file: String, fields: [AlbumField], columns: [String], unmapped: [String])

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
        case let .missingFields(file, fields, columns, _):
            "\(file): " + (fields.count == 1 ? "no column maps to " : "no columns map to ")
                + fields.map(\.name).joined(separator: " and ") + "; columns found: "
                + Self.listing(columns) + "; import refused, nothing changed"
        }
    }

    /// `a, b, c`, or the first 10 and how many more; names cut at 40 characters, an empty one `""`.
    static func listing(_ names: [String]) -> String {
        let shown = names.prefix(10).map { name in
            name.isEmpty ? "\"\"" : name.count > 40 ? name.prefix(39) + "…" : name
        }
        return shown.joined(separator: ", ") + (names.count > 10 ? " and \(names.count - 10) more" : "")
    }
}
