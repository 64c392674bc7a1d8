import Foundation
import AlbumSQLite

/// An album in the library, as stored.
public struct Album: Sendable, Codable, Hashable, Identifiable {
    public typealias ID = Int64

    public let id: ID
    public var title: String
    public var artist: String
    public var genre: String?
    public var year: Int?
    /// Where the cover image comes from: an http(s) or file URL.
    public var coverURL: String?
    /// The album's id in another catalog (Discogs release id, MusicBrainz id, ...), unique when given.
    public var externalID: String?
    public var createdAt: Date
    public var updatedAt: Date

    /// The editable fields, e.g. to change some and pass them back to `update`.
    public var draft: AlbumDraft {
        AlbumDraft(title: title, artist: artist, genre: genre, year: year, coverURL: coverURL, externalID: externalID)
    }
}

extension Album {
    /// The columns `init(row:)` reads, in order.
    static let columns = "id, title, artist, genre, year, cover_url, external_id, created_at, updated_at"

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

extension Date {
    /// Dates are stored as whole milliseconds since 1970: exact round trips, cheap comparisons.
    init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
}
