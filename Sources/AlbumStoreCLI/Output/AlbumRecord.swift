import AlbumStore

/// An album with its index in the list, as the table format shows it.
struct AlbumRecord: Record {
    /// The album's place in the list; `nil` leaves the `#` cell empty.
    var index: Int?
    var album: Album

    /// The list's columns: where the album is, what it is, and its id (for `edit`, `mv`, `rm`, `show`).
    static let tableFields: [AlbumField] = [.index, .artist, .title, .genre, .year, .id]

    static let tableHeader = tableFields.map(heading)

    var tableColumns: [String] { Self.tableFields.map { $0.text(in: album, index: index) ?? "" } }

    /// The `#` column as wide as the last index: indexes only grow down a list, and the column
    /// must not widen past the rows that set the widths (the `ID` column is last, never padded).
    static func minimumWidths(lastIndex: Int?) -> [Int] {
        tableFields.map { $0 == .index ? lastIndex.map { String($0).count } ?? 0 : 0 }
    }

    /// A field's label, but `#` for the index and `Album` for the title: a narrow list that reads
    /// as a record catalog does.
    static func heading(_ field: AlbumField) -> String {
        switch field {
        case .index: "#"
        case .title: "Album"
        default: field.label
        }
    }
}
