internal import AlbumSQLite

/// What a music folder gave an album made from it (`Library.importFolder`).
public struct AlbumFolder: Sendable, Hashable {
    /// The folder holding the album's tracks (bytes that are not UTF-8 shown as `\xNN`).
    public var folder: String
    public var trackCount: Int
    public var discCount: Int
    /// The total length of the tracks, in milliseconds.
    public var durationMS: Int64
    public var musicBrainzReleaseID: String?
    public var musicBrainzReleaseGroupID: String?
    /// Why its tracks are one album, in words.
    public var grouping: String
}

extension AlbumRepository {
    /// The music folder album `id` was made from, or `nil` when no folder import made it.
    public func folder(of id: Album.ID) throws -> AlbumFolder? {
        try library.read { connection in
            try FolderFileStore(connection: connection).album(id).map { record in
                AlbumFolder(
                    folder: record.folder.display, trackCount: record.trackCount, discCount: record.discCount,
                    durationMS: record.durationMS, musicBrainzReleaseID: record.musicBrainzReleaseID,
                    musicBrainzReleaseGroupID: record.musicBrainzReleaseGroupID, grouping: record.grouping)
            }
        }
    }
}
