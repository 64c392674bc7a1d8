import FoundationEssentials

/// The order of query results: fields to sort by, each ascending or descending, then the
/// library's own list order for ties. No keys: the list order alone.
///
/// Text sorts without case or diacritics (`FoldedText`), and by artist a leading "The" is
/// skipped, so "The Cure" files under C, as record shops and players do. Albums missing the
/// field come last, whichever the direction.
public struct AlbumSort: Sendable, Hashable {
    /// One field to sort by, and in which direction.
    public struct Key: Sendable, Hashable {
        /// The field sorted by; a field that is not `isSortable` (`index`) is passed over.
        public var field: AlbumField
        /// Descending (Z to A, newest first) when `true`; albums missing the field still come last.
        public var descending: Bool

        /// A key sorting by `field`, ascending unless `descending`.
        public init(_ field: AlbumField, descending: Bool = false) {
            self.field = field
            self.descending = descending
        }
    }

    /// The keys in order of precedence: the first decides, the next breaks its ties, ...
    public var keys: [Key]

    /// The library's list order (the cover scroller's).
    public static let listOrder = AlbumSort([])

    /// Sorts by `keys`, then by list order.
    public init(_ keys: [Key]) { self.keys = keys }

    /// Parses a sort written as text: fields separated by commas, each optionally `:asc` or `:desc`
    /// (`year:desc,artist`).
    /// - Parameter text: The keys, e.g. `year:desc,artist`; field names as the query language has them.
    /// - Throws: `QueryError` naming an unknown field or direction.
    public init(parsing text: String) throws(QueryError) {
        var keys: [Key] = []
        var offset = 0
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            defer { offset += part.count + 1 }
            let pieces = part.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pieces[0].trimmingWhitespace()
            guard let field = AlbumField(name: name), field.isSortable else {
                let reason = name.isEmpty ? "a sort key is empty (fields separated by commas: year:desc,artist)"
                    : "cannot sort by \"\(name)\""
                throw QueryError(reason, input: text, offset: offset, length: max(1, pieces[0].count))
            }
            var descending = false
            if pieces.count == 2 {
                switch pieces[1].lowercased() {
                case "asc": descending = false
                case "desc": descending = true
                default:
                    throw QueryError(
                        "sort direction \"\(pieces[1])\" is neither asc nor desc", input: text,
                        offset: offset + pieces[0].count + 1, length: max(1, pieces[1].count))
                }
            }
            keys.append(Key(field, descending: descending))
        }
        self.init(keys)
    }
}
