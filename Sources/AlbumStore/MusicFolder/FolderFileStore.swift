import FoundationEssentials
internal import AlbumSQLite

/// The tables of music-folder imports (`Migrations/0013_music_folders.sql`), on one connection,
/// inside the caller's transaction. A value another program wrote of the wrong type reads as
/// absent, so that a rescan reads that file again rather than failing.
struct FolderFileStore {
    let connection: Connection

    /// Calls `body` with the path and stamp of each file known under `root`, in path order: what
    /// tells which files to read.
    func forEachStamp(under root: RawPath, _ body: (FolderWalk.AudioFile) throws -> Void) throws {
        let (low, high) = Self.range(under: root)
        try connection.cachedStatement("""
            SELECT path, size, mtime_ns, ctime_ns, inode FROM folder_files WHERE path >= ? AND path < ? ORDER BY path
            """).forEach([low, high]) { row in
            guard let bytes = try row[0, as: [UInt8]?.self] else { return }
            try body(FolderWalk.AudioFile(path: RawPath(bytes), stamp: FileStamp(
                size: try row[1, as: Int64?.self] ?? 0, mtimeNS: try row[2, as: Int64?.self] ?? 0,
                ctimeNS: try row[3, as: Int64?.self] ?? 0, inode: try row[4, as: Int64?.self] ?? 0)))
        }
    }

    /// Calls `body` with each file known under `root`, in path order.
    func forEachFile(under root: RawPath, _ body: (ScannedFile) throws -> Void) throws {
        let (low, high) = Self.range(under: root)
        try connection.cachedStatement("""
            SELECT path, album_id, size, mtime_ns, ctime_ns, inode, album, album_artist, artist, title, genre,
                   year, original_year, track, track_total, disc, disc_total, compilation,
                   musicbrainz_release_id, musicbrainz_release_group_id, duration_ms, picture_sha256
            FROM folder_files WHERE path >= ? AND path < ? ORDER BY path
            """).forEach([low, high]) { row in
            guard let bytes = try row[0, as: [UInt8]?.self] else { return }
            var tags = TrackTags()
            tags.album = try row[6, as: String?.self]
            tags.albumArtist = try row[7, as: String?.self]
            tags.artist = try row[8, as: String?.self]
            tags.title = try row[9, as: String?.self]
            tags.genre = try row[10, as: String?.self]
            tags.year = Int(try row[11, as: Int64?.self] ?? 0)
            tags.originalYear = Int(try row[12, as: Int64?.self] ?? 0)
            tags.track = Int(try row[13, as: Int64?.self] ?? 0)
            tags.trackTotal = Int(try row[14, as: Int64?.self] ?? 0)
            tags.disc = Int(try row[15, as: Int64?.self] ?? 0)
            tags.discTotal = Int(try row[16, as: Int64?.self] ?? 0)
            tags.isCompilation = (try row[17, as: Int64?.self] ?? 0) != 0
            tags.musicBrainzReleaseID = try row[18, as: String?.self]
            tags.musicBrainzReleaseGroupID = try row[19, as: String?.self]
            tags.durationMS = try row[20, as: Int64?.self] ?? 0
            let stamp = FileStamp(
                size: try row[2, as: Int64?.self] ?? 0, mtimeNS: try row[3, as: Int64?.self] ?? 0,
                ctimeNS: try row[4, as: Int64?.self] ?? 0, inode: try row[5, as: Int64?.self] ?? 0)
            let picture = try row[21, as: Data?.self]
            try body(ScannedFile(
                path: RawPath(bytes), stamp: stamp, tags: tags,
                pictureHash: picture.flatMap { $0.count == 32 ? ContentHash(bytes: $0) : nil },
                albumID: try row[1, as: Int64?.self], isFresh: false))
        }
    }

    /// The bounds of the paths inside `root`: they sort from "/a/" up to "/a0" ("0" follows "/"),
    /// as blobs compare bytes.
    private static func range(under root: RawPath) -> (low: [UInt8], high: [UInt8]) {
        let low = root.bytes.last == UInt8(ascii: "/") ? root.bytes : root.bytes + [UInt8(ascii: "/")]
        return (low, Array(low.dropLast()) + [UInt8(ascii: "0")])
    }

    /// Stores `file` as belonging to album `albumID`, replacing what was known of its path.
    func save(_ file: ScannedFile, albumID: Int64) throws {
        let tags = file.tags
        try connection.run("""
            INSERT INTO folder_files (path, album_id, size, mtime_ns, ctime_ns, inode, album, album_artist, artist,
                title, genre, year, original_year, track, track_total, disc, disc_total, compilation,
                musicbrainz_release_id, musicbrainz_release_group_id, duration_ms, picture_sha256)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (path) DO UPDATE SET album_id = excluded.album_id, size = excluded.size,
                mtime_ns = excluded.mtime_ns, ctime_ns = excluded.ctime_ns, inode = excluded.inode,
                album = excluded.album, album_artist = excluded.album_artist, artist = excluded.artist,
                title = excluded.title, genre = excluded.genre, year = excluded.year,
                original_year = excluded.original_year, track = excluded.track, track_total = excluded.track_total,
                disc = excluded.disc, disc_total = excluded.disc_total, compilation = excluded.compilation,
                musicbrainz_release_id = excluded.musicbrainz_release_id,
                musicbrainz_release_group_id = excluded.musicbrainz_release_group_id,
                duration_ms = excluded.duration_ms, picture_sha256 = excluded.picture_sha256
            """,
            file.path.bytes, albumID, file.stamp.size, file.stamp.mtimeNS, file.stamp.ctimeNS, file.stamp.inode,
            tags.album, tags.albumArtist, tags.artist, tags.title, tags.genre, tags.year, tags.originalYear,
            tags.track, tags.trackTotal, tags.disc, tags.discTotal, tags.isCompilation ? 1 : 0,
            tags.musicBrainzReleaseID, tags.musicBrainzReleaseGroupID, tags.durationMS, file.pictureHash?.bytes)
    }

    /// Forgets the file at `path`.
    func forget(_ path: RawPath) throws {
        try connection.run("DELETE FROM folder_files WHERE path = ?", path.bytes)
    }

    /// What the last scan gave album `albumID`, or `nil` for an album no scan made.
    func album(_ albumID: Int64) throws -> ScannedAlbumRecord? {
        try connection.first("""
            SELECT folder, track_count, disc_count, duration_ms, musicbrainz_release_id, musicbrainz_release_group_id,
                   grouping, scanned_title, scanned_artist, scanned_genre, scanned_year, scanned_external_id, scanned_cover
            FROM album_folders WHERE album_id = ?
            """, albumID) { row in
            ScannedAlbumRecord(
                folder: RawPath(try row[0, as: [UInt8]?.self] ?? []),
                trackCount: Int(try row[1, as: Int64?.self] ?? 0), discCount: Int(try row[2, as: Int64?.self] ?? 0),
                durationMS: try row[3, as: Int64?.self] ?? 0,
                musicBrainzReleaseID: try row[4, as: String?.self], musicBrainzReleaseGroupID: try row[5, as: String?.self],
                grouping: try row[6, as: String?.self] ?? "",
                title: try row[7, as: String?.self], artist: try row[8, as: String?.self],
                genre: try row[9, as: String?.self], year: (try row[10, as: Int64?.self]).map(Int.init),
                externalID: try row[11, as: String?.self],
                cover: try row[12, as: Data?.self].flatMap { $0.count == 32 ? ContentHash(bytes: $0) : nil })
        }
    }

    /// Stores what this scan gave album `albumID`.
    func save(_ record: ScannedAlbumRecord, albumID: Int64) throws {
        try connection.run("""
            INSERT OR REPLACE INTO album_folders (album_id, folder, track_count, disc_count, duration_ms,
                musicbrainz_release_id, musicbrainz_release_group_id, grouping, scanned_title, scanned_artist,
                scanned_genre, scanned_year, scanned_external_id, scanned_cover)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, albumID, record.folder.bytes, record.trackCount, record.discCount, record.durationMS,
            record.musicBrainzReleaseID, record.musicBrainzReleaseGroupID, record.grouping, record.title,
            record.artist, record.genre, record.year, record.externalID, record.cover?.bytes)
    }

    /// The albums a scan made under `root`, by their folder and the title and artist the scan
    /// gave them: how a redone import finds its albums again (`folder_files` is not undone).
    func albumsMade(under root: RawPath) throws -> [ScannedAlbumKey: Int64] {
        let (low, high) = Self.range(under: root)
        var albums: [ScannedAlbumKey: Int64] = [:]
        try connection.cachedStatement("""
            SELECT album_id, folder, scanned_title, scanned_artist FROM album_folders
            WHERE folder = ? OR (folder >= ? AND folder < ?) ORDER BY album_id
            """).forEach([root.bytes, low, high]) { row in
            guard let folder = try row[1, as: [UInt8]?.self], let title = try row[2, as: String?.self],
                  let artist = try row[3, as: String?.self] else { return }
            let key = ScannedAlbumKey(folder: RawPath(folder), title: title, artist: artist)
            if albums[key] == nil { albums[key] = try row[0, as: Int64.self] }
        }
        return albums
    }

    /// The albums a scan made under `root` that no known file belongs to any more.
    func albumsWithoutFiles(under root: RawPath) throws -> [Int64] {
        let (low, high) = Self.range(under: root)
        return try connection.query("""
            SELECT album_id FROM album_folders AS a
            WHERE (folder = ? OR (folder >= ? AND folder < ?))
                AND NOT EXISTS (SELECT 1 FROM folder_files WHERE album_id = a.album_id)
            ORDER BY album_id
            """, root.bytes, low, high) { try $0[0, as: Int64.self] }
    }
}

/// What a scan gave an album: the facts of its folder, and the values it set on the album's
/// fields (a field that no longer holds its scanned value was edited, and a rescan keeps it).
struct ScannedAlbumRecord: Sendable, Hashable {
    var folder: RawPath
    var trackCount: Int
    var discCount: Int
    var durationMS: Int64
    var musicBrainzReleaseID: String?
    var musicBrainzReleaseGroupID: String?
    var grouping: String
    var title: String?
    var artist: String?
    var genre: String?
    var year: Int?
    var externalID: String?
    var cover: ContentHash?
}

/// An album a scan made, as its folder and the title and artist the scan gave it.
struct ScannedAlbumKey: Hashable {
    var folder: RawPath
    var title: String
    var artist: String
}
