import FoundationEssentials
internal import AlbumSQLite

/// An album in the library, as stored.
///
/// Its `Codable` form is the documented JSON object (see `AlbumField` and `JSONWriter`), whatever
/// the coder's key and date strategies: snake_case keys, `null` for a missing field, dates as
/// `ISO8601Timestamp` strings.
public struct Album: Sendable, Codable, Hashable, Identifiable {
    /// An album's id: its SQLite rowid, assigned when the album is added and never changed.
    public typealias ID = Int64

    /// The album's id, never given to another album (even after this one is deleted); undoing
    /// its deletion brings it back under the same id.
    public let id: ID
    /// The album's title, trimmed and never empty.
    public var title: String
    /// The album's artist, trimmed and never empty.
    public var artist: String
    /// The album's genre, or `nil` when none is known.
    public var genre: String?
    /// The year of release, or `nil` when unknown.
    public var year: Int?
    /// Where the cover image comes from: an http(s) or file URL.
    public var coverURL: String?
    /// The album's id in another catalog (Discogs release id, MusicBrainz id, ...), unique when given.
    public var externalID: String?
    /// When the album was added, to the millisecond, or the date its imported catalog gave.
    public var createdAt: Date
    /// When the album was last edited (its creation date until then), to the millisecond, or
    /// the date its imported catalog gave.
    public var updatedAt: Date

    /// The editable fields, e.g. to change some and pass them back to `update`.
    public var draft: AlbumDraft {
        AlbumDraft(title: title, artist: artist, genre: genre, year: year, coverURL: coverURL, externalID: externalID)
    }
}

extension Album {
    /// The columns `init(row:)` reads, in order: those of the stored fields.
    static let columns = AlbumField.stored.compactMap(\.column).joined(by: ", ")

    init(row: borrowing Row) throws {
        id = try row[0]
        title = try row[1]
        artist = try row[2]
        genre = try row[3]
        year = try row[4]
        coverURL = try row[5]
        externalID = try row[6]
        createdAt = Date(millisecondsSince1970: try row[7])
        updatedAt = Date(millisecondsSince1970: try row[8])
    }
}

extension Album {
    /// Writes the album's JSON object: the keys `id`, `title`, `artist`, `genre`, `year`,
    /// `cover_url`, `external_id`, `created_at`, `updated_at`, in that order.
    ///
    /// A missing field is written as `null`, its key kept. Dates are `ISO8601Timestamp` strings
    /// whatever the encoder's `dateEncodingStrategy`; `convertToSnakeCase` leaves the keys as they
    /// are. Whether the encoder keeps the order is its own affair: Foundation's `JSONEncoder` on
    /// Linux does not (use `.sortedKeys` for stable bytes); `JSONWriter` always does.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: SnakeCaseKey.self)
        try container.encode(id, forKey: AlbumField.id.jsonKey)
        try draft.encodeFields(into: &container)
        try container.encode(createdAt, forKey: AlbumField.createdAt.jsonKey)
        try container.encode(updatedAt, forKey: AlbumField.updatedAt.jsonKey)
    }

    /// Reads the album's JSON object, as `encode(to:)` and `JSONWriter` write it.
    ///
    /// Keys match whatever the decoder's key strategy made of them (`coverUrl` after
    /// `convertFromSnakeCase`); other keys, `index` among them, are ignored. A missing or `null`
    /// optional field is `nil`; `id`, `title`, `artist` and the dates must be there.
    ///
    /// - Throws: `DecodingError` naming the key when a value is missing or of the wrong type, or a
    ///   date is not an ISO 8601 string.
    public init(from decoder: Decoder) throws {
        let object = try SnakeCaseObject(decoder)
        id = try object.decode(ID.self, forKey: AlbumField.id.jsonKey)
        let fields = try AlbumDraft(fields: object)
        title = fields.title
        artist = fields.artist
        genre = fields.genre
        year = fields.year
        coverURL = fields.coverURL
        externalID = fields.externalID
        createdAt = try object.decodeDate(forKey: AlbumField.createdAt.jsonKey)
        updatedAt = try object.decodeDate(forKey: AlbumField.updatedAt.jsonKey)
    }
}

extension Date {
    /// Dates are stored as whole milliseconds since 1970: exact round trips, cheap comparisons.
    init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
}
