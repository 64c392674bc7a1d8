import AlbumStore
import Foundation

/// An album with its index in the list, as commands print it.
struct AlbumRecord: Record {
    var index: Int
    var album: Album

    static let tableHeader = ["#", "Artist", "Album", "Genre", "Year", "ID"]
    var tableColumns: [String] {
        [String(index), album.artist, album.title, album.genre ?? "", album.year.map(String.init) ?? "", String(album.id)]
    }

    static let dataHeader = ["index", "id", "title", "artist", "genre", "year", "cover_url", "external_id", "created_at", "updated_at"]
    var dataColumns: [String] {
        [String(index), String(album.id), album.title, album.artist, album.genre ?? "", album.year.map(String.init) ?? "",
         album.coverURL ?? "", album.externalID ?? "",
         album.createdAt.formatted(.iso8601), album.updatedAt.formatted(.iso8601)]
    }

    enum CodingKeys: String, CodingKey {
        case index, id, title, artist, genre, year, coverURL = "cover_url", externalID = "external_id"
        case createdAt = "created_at", updatedAt = "updated_at"
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(album.id, forKey: .id)
        try container.encode(album.title, forKey: .title)
        try container.encode(album.artist, forKey: .artist)
        try container.encode(album.genre, forKey: .genre)
        try container.encode(album.year, forKey: .year)
        try container.encode(album.coverURL, forKey: .coverURL)
        try container.encode(album.externalID, forKey: .externalID)
        try container.encode(album.createdAt, forKey: .createdAt)
        try container.encode(album.updatedAt, forKey: .updatedAt)
    }
}
