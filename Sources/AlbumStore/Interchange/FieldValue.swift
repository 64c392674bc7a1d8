import FoundationEssentials

/// One field of one album as the writers and `Album`'s `Codable` see it: each format then spells
/// text, numbers, dates and nothing its own way.
enum FieldValue: Equatable {
    case text(String)
    case integer(Int64)
    case date(Date)
    case null
}

extension AlbumField {
    /// This field of `album`; `index` is the album's place in the list when the caller knows it.
    func value(in album: Album, index: Int?) -> FieldValue {
        switch self {
        case .index: index.map { .integer(Int64($0)) } ?? .null
        case .id: .integer(album.id)
        case .title: .text(album.title)
        case .artist: .text(album.artist)
        case .genre: album.genre.map(FieldValue.text) ?? .null
        case .year: album.year.map { .integer(Int64($0)) } ?? .null
        case .coverURL: album.coverURL.map(FieldValue.text) ?? .null
        case .externalID: album.externalID.map(FieldValue.text) ?? .null
        case .createdAt: .date(album.createdAt)
        case .updatedAt: .date(album.updatedAt)
        }
    }

    /// This field of `album` as CSV and TSV write it: numbers in decimal, dates as
    /// `ISO8601Timestamp`; `nil` for a missing field (and for `index` when `index` is `nil`).
    public func text(in album: Album, index: Int? = nil) -> String? {
        switch value(in: album, index: index) {
        case let .text(text): text
        case let .integer(number): String(number)
        case let .date(date): ISO8601Timestamp.string(from: date)
        case .null: nil
        }
    }
}

extension KeyedEncodingContainer where K == SnakeCaseKey {
    /// Writes a field as JSON spells it: text and numbers as such, a date as an ISO 8601 string,
    /// nothing as `null` (the key stays present).
    mutating func encode(_ value: FieldValue, forKey name: String) throws {
        let key = SnakeCaseKey(name)
        switch value {
        case let .text(text): try encode(text, forKey: key)
        case let .integer(number): try encode(number, forKey: key)
        case let .date(date): try encode(ISO8601Timestamp.string(from: date), forKey: key)
        case .null: try encodeNil(forKey: key)
        }
    }
}
