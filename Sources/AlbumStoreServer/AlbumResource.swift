import AlbumStore

/// An album as the API sends it: the object of `albumstore list --format json` (written by the
/// library's own JSON writer, `index` first) with `cover`, the stored cover's facts or `null`,
/// and for a search result `list_index`, its place in the whole list.
struct AlbumResource {
    var index: Int
    var album: Album
    var cover: CoverInfo?
    var listIndex: Int?

    var json: String {
        get throws {
            let cover = cover.map(CoverFacts.init).map(\.json) ?? "null"
            return try album.jsonObject(index: index, appending: "\"cover\":\(cover)" + (listIndex.map { ",\"list_index\":\($0)" } ?? ""))
        }
    }

    /// The albums at `pairs`, each with its cover's facts (read in one snapshot).
    static func list(_ pairs: [(index: Int, album: Album)], in library: Library) throws -> [AlbumResource] {
        let covers = try library.covers.info(albumIDs: pairs.map(\.album.id))
        return pairs.map { AlbumResource(index: $0.index, album: $0.album, cover: covers[$0.album.id]) }
    }

    static func one(_ album: Album, in library: Library) throws -> AlbumResource {
        AlbumResource(index: try library.albums.index(of: album.id), album: album, cover: try library.covers.info(albumID: album.id))
    }

    /// A list of albums and where it sits in the whole: `{"total", "offset", "albums"}`.
    static func page(total: Int, offset: Int, _ albums: [AlbumResource]) throws -> String {
        "{\"total\":\(total),\"offset\":\(offset),\"albums\":[" + (try albums.map { try $0.json }).joined(separator: ",") + "]}"
    }
}

/// A cover's facts: `sha256`, `format`, `width`, `height`, `bytes`.
struct CoverFacts: Encodable {
    var sha256: String
    var format: String
    var width: Int
    var height: Int
    var bytes: Int

    init(_ info: CoverInfo) {
        sha256 = info.sha256
        format = info.format.rawValue
        width = info.width
        height = info.height
        bytes = info.byteCount
    }

    /// The object as JSON text: every value is a hex digest, a format's name or a number, none
    /// of which needs escaping.
    var json: String {
        "{\"sha256\":\"\(sha256)\",\"format\":\"\(format)\",\"width\":\(width),\"height\":\(height),\"bytes\":\(bytes)}"
    }
}

/// An album's cover as the API answers it: `album_id` and the cover's facts.
struct AlbumCover: Encodable {
    var albumID: Int64
    var cover: CoverFacts

    init(_ info: CoverInfo) {
        albumID = info.albumID
        cover = CoverFacts(info)
    }

    func encode(to encoder: Encoder) throws {
        try cover.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(albumID, forKey: .albumID)
    }

    enum CodingKeys: String, CodingKey { case albumID = "album_id" }
}
