extension AlbumField {
    /// How the query language compares a field.
    public enum QueryKind: Sendable {
        /// Substring (`:`), exact (`:=`), regular expression (`::`), missing (`genre:`).
        case text
        /// A number or a range (`year:1990..1999`), missing (`year:`).
        case number
    }

    /// How a query compares this field; `nil` for one a query cannot name (`index`, the dates).
    public var queryKind: QueryKind? {
        switch self {
        case .title, .artist, .genre, .coverURL, .externalID: .text
        case .year, .id: .number
        case .index, .createdAt, .updatedAt: nil
        }
    }

    /// Whether `AlbumSort` can order by this field: all but `index`, which is the
    /// place in the results.
    public var isSortable: Bool { self != .index }

    /// The fields a query can name, in the documented order.
    public static let queryable: [AlbumField] = allCases.filter { $0.queryKind != nil }

    /// The fields a sort can name, in the documented order.
    public static let sortable: [AlbumField] = allCases.filter(\.isSortable)
}
