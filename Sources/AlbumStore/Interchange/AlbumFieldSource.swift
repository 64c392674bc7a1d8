/// The stored fields of one album as the writers read them: from an `Album`, or straight from a
/// row of the albums query (`AlbumRow`), whose texts then never become Strings. One encoder per
/// format serves both, so an album written either way gives the same bytes.
protocol AlbumFieldSource: ~Copyable {
    /// Lends the value of `field` (a stored one, not `index`) to `body`; text is lent as UTF-8
    /// bytes that are valid only during the call.
    func withValue<R>(of field: AlbumField, _ body: (StoredValue) throws -> R) throws -> R
}

/// One stored field of an album, as the writers spell it.
enum StoredValue {
    /// Valid UTF-8, lent for the call only.
    case text(UnsafeBufferPointer<UInt8>)
    case integer(Int64)
    /// Milliseconds since 1970, written as an `ISO8601Timestamp`.
    case timestamp(Int64)
    case null
}

extension Album: AlbumFieldSource {
    func withValue<R>(of field: AlbumField, _ body: (StoredValue) throws -> R) throws -> R {
        switch field {
        case .index: try body(.null)
        case .id: try body(.integer(id))
        case .title: try Self.withText(title, body)
        case .artist: try Self.withText(artist, body)
        case .genre: try Self.withText(genre, body)
        case .year: try body(year.map { .integer(Int64($0)) } ?? .null)
        case .coverURL: try Self.withText(coverURL, body)
        case .externalID: try Self.withText(externalID, body)
        case .createdAt: try body(.timestamp(ISO8601Timestamp.milliseconds(of: createdAt)))
        case .updatedAt: try body(.timestamp(ISO8601Timestamp.milliseconds(of: updatedAt)))
        }
    }

    private static func withText<R>(_ text: String?, _ body: (StoredValue) throws -> R) throws -> R {
        guard var text else { return try body(.null) }
        return try text.withUTF8 { try body(.text($0)) }
    }
}
