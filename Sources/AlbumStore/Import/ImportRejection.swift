/// A row an import could not take: where it is and why.
public struct ImportRejection: Sendable, Hashable, CustomStringConvertible {
    /// The source's name (`ImportSource.displayName`).
    public var file: String
    /// The 1-based line where the row starts.
    public var line: Int
    /// The source column or key at fault (`Released`), or the album field when the row lacks
    /// it (`title`); `nil` when the row itself is at fault (a wrong number of fields).
    public var field: String?
    /// Why the row was refused, in one line.
    public var reason: String

    /// A rejection of the row starting at `line` of `file`, for `reason`.
    public init(file: String, line: Int, field: String?, reason: String) {
        self.file = file
        self.line = line
        self.field = field
        self.reason = reason
    }

    /// `FILE:LINE: field: reason`, one line.
    public var description: String {
        "\(file):\(line): \(field.map { "\($0): " } ?? "")\(reason)"
    }
}
