import AlbumStore

/// An album as the API sends it: the fields of `albumstore list --format json` (`index` first
/// among them) and `cover`, the stored cover's facts or `null`.
struct AlbumResource: Encodable {
    var index: Int
    var album: Album
    var cover: CoverInfo?

    func encode(to encoder: Encoder) throws {
        try album.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(index, forKey: .index)
        if let cover {
            try container.encode(CoverFacts(cover), forKey: .cover)
        } else {
            try container.encodeNil(forKey: .cover)
        }
    }

    private enum Key: String, CodingKey { case index, cover }

    /// The albums at `pairs`, each with its cover's facts.
    static func list(_ pairs: [(index: Int, album: Album)], in library: Library) throws -> [AlbumResource] {
        let covers = try library.covers.info(albumIDs: pairs.map(\.album.id))
        return pairs.map { AlbumResource(index: $0.index, album: $0.album, cover: covers[$0.album.id]) }
    }

    static func one(_ album: Album, in library: Library) throws -> AlbumResource {
        AlbumResource(index: try library.albums.index(of: album.id), album: album, cover: try library.covers.info(albumID: album.id))
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
}

/// A list of albums and where it sits in the whole: `total`, `offset`, `albums`.
struct AlbumPage: Encodable {
    var total: Int
    var offset: Int
    var albums: [AlbumResource]
}
