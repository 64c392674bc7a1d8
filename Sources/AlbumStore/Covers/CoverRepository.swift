import FoundationEssentials
internal import AlbumSQLite

/// The albums' cover images, stored in the library file as blobs.
///
/// Content-addressed: an image is stored once under its SHA-256, however many albums show it.
/// Setting and removing a cover are undoable commands whose history keeps the hash, not the
/// image; `collectGarbage()` keeps every image a history entry can bring back. Bytes move in
/// chunks through incremental blob I/O, so memory does not grow with an image's size, and
/// album reads never touch the cover table.
public struct CoverRepository: Sendable {
    let library: Library

    /// The default size cap: 20 MB.
    public static let defaultSizeLimit = 20 * 1024 * 1024

    // MARK: Commands

    /// Stores `source` as album `albumID`'s cover, replacing any cover it had (undoable).
    ///
    /// The source is read once to hash and sniff it before the write lock is taken, then
    /// streamed into the file unless an identical image is already stored.
    /// - Throws: `CoverError.notAnImage`, `.tooLarge` (over `sizeLimit` bytes), `.file`,
    ///   `AlbumError.notFound`; nothing changes then.
    @discardableResult
    public func set(albumID: Int64, from source: CoverSource, sizeLimit: Int = defaultSizeLimit) throws -> CoverInfo {
        let scan = try CoverScan(source, limit: sizeLimit)
        return try library.perform { command in
            let album = try Self.requireAlbum(albumID, in: command.connection)
            let store = CoverImageStore(connection: command.connection)
            try store.add(source, scan: scan)
            try store.link(albumID: albumID, to: scan.hash)
            let header = scan.header
            let info = CoverInfo(albumID: albumID, sha256: scan.hash.hex, format: header.format,
                                 width: header.width, height: header.height, byteCount: scan.byteCount)
            return (info, "set the cover of \(album.quoted) (\(header.format.rawValue) \(header.width)×\(header.height))")
        }
    }

    /// Stores `data` as album `albumID`'s cover (see `set(albumID:from:sizeLimit:)`).
    @discardableResult
    public func set(albumID: Int64, data: Data, sizeLimit: Int = defaultSizeLimit) throws -> CoverInfo {
        try set(albumID: albumID, from: .data(data), sizeLimit: sizeLimit)
    }

    /// Removes album `albumID`'s cover (undoable) and returns what it was. The image stays in the
    /// file while a history entry can bring it back.
    /// - Throws: `CoverError.noCover`, `AlbumError.notFound`.
    @discardableResult
    public func remove(albumID: Int64) throws -> CoverInfo {
        try library.perform { command in
            let album = try Self.requireAlbum(albumID, in: command.connection)
            let store = CoverImageStore(connection: command.connection)
            guard let info = try store.info(albumID: albumID) else { throw CoverError.noCover(albumID: albumID) }
            try store.unlink(albumID: albumID)
            return (info, "remove the cover of \(album.quoted)")
        }
    }

    /// Deletes the images that no album shows and no history entry can bring back.
    public func collectGarbage() throws -> CoverGarbageReport {
        try library.refuseIfReadOnly()
        return try mappingStorageErrors(path: library.path, busyTimeout: library.busyTimeout) {
            try library.database.write { try CoverGarbageCollector(connection: $0).collect() }
        }
    }

    // MARK: Reading

    /// Album `albumID`'s cover, without its bytes, or `nil`.
    public func info(albumID: Int64) throws -> CoverInfo? {
        try library.read { try CoverImageStore(connection: $0).info(albumID: albumID) }
    }

    /// The covers of `albumIDs` that have one, without their bytes, read from one snapshot (a
    /// screenful in one read transaction rather than one each).
    package func info(albumIDs: [Int64]) throws -> [Int64: CoverInfo] {
        try library.read { connection in
            let store = CoverImageStore(connection: connection)
            var covers: [Int64: CoverInfo] = [:]
            for id in albumIDs { covers[id] = try store.info(albumID: id) }
            return covers
        }
    }

    /// The bytes of album `albumID`'s cover, or `nil`. For large images prefer `read`, which
    /// streams.
    public func data(albumID: Int64) throws -> Data? {
        try library.read { try CoverImageStore(connection: $0).data(albumID: albumID) }
    }

    /// The covers of `albumIDs`, read from one snapshot: `body` gets each album's id and its
    /// cover's bytes (`nil` when it has none), in order. For a screenful of covers or any batch,
    /// much faster than `data(albumID:)` one by one: one read transaction, one blob handle moved
    /// from image to image, the file memory-mapped while it runs.
    public func data(albumIDs: some Sequence<Int64>, _ body: (Int64, Data?) throws -> Void) throws {
        try library.read { try CoverImageStore(connection: $0).data(albumIDs: albumIDs, body) }
    }

    /// Calls `body` with the bytes of album `albumID`'s cover in chunks of at most `chunkSize`
    /// bytes, in order, from one consistent snapshot; returns the cover's info, or `nil` (and no
    /// call) when the album has none.
    @discardableResult
    public func read(albumID: Int64, chunkSize: Int = 64 * 1024, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> CoverInfo? {
        try library.read { connection in
            try CoverImageStore(connection: connection).read(albumID: albumID, chunkSize: max(1, chunkSize), body)
        }
    }

    /// Counts and sizes of the store.
    public func stats() throws -> CoverStats {
        try library.read { connection in
            try connection.first("""
                SELECT (SELECT count(*) FROM cover_images),
                       (SELECT coalesce(sum(byte_count), 0) FROM cover_images),
                       (SELECT count(*) FROM covers c WHERE EXISTS (SELECT 1 FROM albums a WHERE a.id = c.album_id)),
                       (SELECT count(*) FROM albums a WHERE NOT EXISTS (SELECT 1 FROM covers c WHERE c.album_id = a.id)),
                       (SELECT coalesce(sum(i.byte_count), 0) FROM covers c JOIN cover_images i ON i.sha256 = c.sha256)
                     - (SELECT coalesce(sum(byte_count), 0) FROM cover_images i
                        WHERE EXISTS (SELECT 1 FROM covers c WHERE c.sha256 = i.sha256))
                """) { row in
                CoverStats(imageCount: try row[0], totalBytes: try row[1], albumsWithCover: try row[2],
                           albumsWithoutCover: try row[3], bytesSavedByDeduplication: max(0, try row[4]))
            } ?? CoverStats(imageCount: 0, totalBytes: 0, albumsWithCover: 0, albumsWithoutCover: 0, bytesSavedByDeduplication: 0)
        }
    }

    /// The albums among `albumIDs` (every album when `nil`) that have no cover, with their cover
    /// URLs, in list order.
    public func albumsWithoutCover(among albumIDs: [Int64]? = nil) throws -> [(id: Int64, coverURL: String?)] {
        let pairs = try library.read { connection in
            try CoverImageStore(connection: connection).albumsWithoutCover(among: albumIDs).map { CoverlessAlbum(id: $0.id, url: $0.url) }
        }
        return pairs.map { ($0.id, $0.url) }
    }

    /// The album `albumID`, which the history names by its title. - Throws: `AlbumError.notFound`.
    static func requireAlbum(_ albumID: Int64, in connection: Connection) throws -> Album {
        guard let album = try AlbumRepository.album(id: albumID)(connection) else { throw AlbumError.notFound(id: albumID) }
        return album
    }
}

/// An album without a cover, as it crosses from a reader connection.
private struct CoverlessAlbum: Sendable {
    let id: Int64
    let url: String?
}

extension Library {
    /// The albums' cover images.
    public var covers: CoverRepository { CoverRepository(library: self) }
}
