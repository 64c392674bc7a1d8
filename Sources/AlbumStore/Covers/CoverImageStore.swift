import FoundationEssentials
internal import AlbumSQLite

/// The content-addressed image table (`cover_images`) and the album links (`covers`), on one
/// connection, inside the caller's transaction.
///
/// Bytes go in and out through incremental blob I/O (`sqlite3_blob_*`) in chunks: an image is
/// never held whole in memory on its way into or out of the file.
/// Related SQLite documentation: https://sqlite.org/c3ref/blob_open.html
struct CoverImageStore {
    let connection: Connection

    /// The id of the image with `hash`, or `nil` when none is stored.
    func imageID(_ hash: ContentHash) throws -> Int64? {
        try connection.scalar("SELECT id FROM cover_images WHERE sha256 = ?", hash.bytes)
    }

    /// Stores `source` under its hash unless an identical image is there already.
    /// - Throws: `CoverError.changedWhileReading` when the source no longer hashes as `scan`
    ///   found (a file rewritten meanwhile); the transaction then rolls back.
    func add(_ source: CoverSource, scan: CoverScan) throws {
        if try imageID(scan.hash) != nil { return }
        try connection.run("""
            INSERT INTO cover_images (sha256, format, width, height, byte_count, created_at, bytes)
            VALUES (?, ?, ?, ?, ?, ?, zeroblob(?))
            """, scan.hash.bytes, scan.header.format.rawValue, scan.header.width, scan.header.height,
            scan.byteCount, Date().millisecondsSince1970, scan.byteCount)
        let blob = try connection.openBlob(table: "cover_images", column: "bytes", rowID: connection.lastInsertRowID, writable: true)
        var hasher = ContentHasher()
        var offset = 0
        try source.forEachChunk { chunk in
            // The blob was sized by the first pass: a source that grew cannot overflow it.
            guard offset + chunk.count <= scan.byteCount else { throw CoverError.changedWhileReading(source: source.name) }
            try blob.write(chunk, at: offset)
            hasher.update(chunk)
            offset += chunk.count
        }
        guard offset == scan.byteCount, hasher.finalize() == scan.hash else {
            throw CoverError.changedWhileReading(source: source.name)
        }
    }

    /// Points album `albumID` at the image with `hash` (replacing its previous cover).
    func link(albumID: Int64, to hash: ContentHash) throws {
        try connection.run("""
            INSERT INTO covers (album_id, sha256, set_at) VALUES (?, ?, ?)
            ON CONFLICT (album_id) DO UPDATE SET sha256 = excluded.sha256, set_at = excluded.set_at
            """, albumID, hash.bytes, Date().millisecondsSince1970)
    }

    /// The hash of album `albumID`'s cover, `nil` when it has none.
    func hash(albumID: Int64) throws -> ContentHash? {
        try connection.scalar("SELECT sha256 FROM covers WHERE album_id = ?", albumID, as: Data.self).map(ContentHash.init(bytes:))
    }

    /// Removes album `albumID`'s link; the image stays until garbage collection.
    func unlink(albumID: Int64) throws {
        try connection.run("DELETE FROM covers WHERE album_id = ?", albumID)
    }

    /// The cover of album `albumID`, without its bytes; `nil` when it has none. A link whose
    /// image is missing, or whose stored facts are out of range (another program's writing),
    /// reads as no cover.
    func info(albumID: Int64) throws -> CoverInfo? {
        try connection.first("""
            SELECT c.album_id, i.sha256, i.format, i.width, i.height, i.byte_count
            FROM covers c JOIN cover_images i ON i.sha256 = c.sha256 WHERE c.album_id = ?
            """, albumID) { row -> CoverInfo? in
            let width: Int = try row[3], height: Int = try row[4], byteCount: Int = try row[5]
            guard let format = ImageFormat(rawValue: try row[2]), width > 0, height > 0, byteCount >= 0 else { return nil }
            return CoverInfo(albumID: try row[0], sha256: ContentHash(bytes: try row[1]).hex, format: format,
                             width: width, height: height, byteCount: byteCount)
        } ?? nil
    }

    /// The ids of the albums among `albumIDs` (all albums when `nil`) that have no cover, with
    /// their cover URL, in list order.
    func albumsWithoutCover(among albumIDs: [Int64]?) throws -> [(id: Int64, url: String?)] {
        let all = try connection.query("""
            SELECT a.id, a.cover_url FROM albums a WHERE NOT EXISTS (SELECT 1 FROM covers c WHERE c.album_id = a.id)
            ORDER BY a.position, a.id
            """) { (id: try $0[0] as Int64, url: try $0[1] as String?) }
        guard let albumIDs else { return all }
        let wanted = Set(albumIDs)
        return all.filter { wanted.contains($0.id) }
    }

    /// The bytes of album `albumID`'s cover, or `nil`: one cached statement copying the blob
    /// straight into `Data`. Measured faster than incremental blob I/O for whole images
    /// (`sqlite3_blob_open` compiles a statement of its own on every call); `read` streams.
    func data(albumID: Int64) throws -> Data? {
        try connection.first(
            "SELECT i.bytes FROM covers c JOIN cover_images i ON i.sha256 = c.sha256 WHERE c.album_id = ?", albumID
        ) { try $0[0] as Data }
    }

    /// Calls `body` with each album's cover bytes (`nil` when it has none), in order, all from
    /// the caller's read transaction: one blob handle moved from image to image
    /// (`sqlite3_blob_reopen`, no statement compiled per image) reads each image straight into
    /// its `Data`. The file is read, never memory-mapped: a mapping raises SIGBUS when another
    /// process truncates the file under it.
    func data(albumIDs: some Sequence<Int64>, _ body: (Int64, Data?) throws -> Void) throws {
        var reused: Blob?
        for albumID in albumIDs {
            guard let rowID = try imageRowID(albumID: albumID) else { try body(albumID, nil); continue }
            let blob: Blob
            if let reused { try reused.reopen(rowID: rowID); blob = reused } else {
                blob = try connection.openBlob(table: "cover_images", column: "bytes", rowID: rowID)
                reused = blob
            }
            try body(albumID, try blob.data())
        }
    }

    /// The rowid of album `albumID`'s image in `cover_images` (what blob I/O addresses), or `nil`.
    private func imageRowID(albumID: Int64) throws -> Int64? {
        try connection.scalar(
            "SELECT i.id FROM covers c JOIN cover_images i ON i.sha256 = c.sha256 WHERE c.album_id = ?", albumID)
    }

    /// Calls `body` with the bytes of album `albumID`'s cover in chunks of at most `chunkSize`;
    /// returns its info, or `nil` (and no call) when it has none.
    func read(albumID: Int64, chunkSize: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> CoverInfo? {
        guard let info = try info(albumID: albumID), let rowID = try imageRowID(albumID: albumID) else { return nil }
        let blob = try connection.openBlob(table: "cover_images", column: "bytes", rowID: rowID)
        let count = blob.count
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, min(chunkSize, count)), alignment: 1)
        defer { buffer.deallocate() }
        var offset = 0
        while offset < count {
            let length = min(buffer.count, count - offset)
            let chunk = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<length])
            try blob.read(into: chunk, at: offset)
            try body(UnsafeRawBufferPointer(chunk))
            offset += length
        }
        return info
    }
}
