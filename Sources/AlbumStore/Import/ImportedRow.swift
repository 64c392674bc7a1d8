/// One catalog record turned into a checked album draft, with what the file supplied.
struct ImportedRow {
    /// The 1-based line the record starts on.
    var line: Int
    /// The album's fields, validated (`AlbumDraft.validated`): trimmed, empty ones `nil`.
    var draft: AlbumDraft
    /// The fields the record had a value for: an update changes only these.
    var supplied: FieldSet
    /// Milliseconds since 1970, when the record gives them (an export does).
    var createdAt: Int64?
    var updatedAt: Int64?
}

/// A set of album fields, as bits.
struct FieldSet: Equatable {
    var bits: UInt16 = 0

    func contains(_ field: AlbumField) -> Bool { bits & Self.bit(field) != 0 }
    mutating func insert(_ field: AlbumField) { bits |= Self.bit(field) }

    private static func bit(_ field: AlbumField) -> UInt16 {
        switch field {
        case .index: 1 << 0
        case .id: 1 << 1
        case .title: 1 << 2
        case .artist: 1 << 3
        case .genre: 1 << 4
        case .year: 1 << 5
        case .coverURL: 1 << 6
        case .externalID: 1 << 7
        case .createdAt: 1 << 8
        case .updatedAt: 1 << 9
        }
    }
}
