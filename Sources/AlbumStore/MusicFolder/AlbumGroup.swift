/// The tracks of a music folder that make one album, and what they say of it.
struct AlbumGroup: Sendable {
    /// Indexes into the scan's files, by disc, track number and path.
    var files: [Int]
    var title: String
    var artist: String
    /// The most common genre of the tracks.
    var genre: String?
    /// The most common release year (original year where tagged).
    var year: Int?
    var discCount: Int
    var durationMS: Int64
    var musicBrainzReleaseID: String?
    var musicBrainzReleaseGroupID: String?
    /// The closest folder holding every track.
    var folder: RawPath
    /// Why these tracks are one album, in words.
    var grouping: String
    var cover: Cover?
    /// How many of the tracks had no tags at all.
    var untaggedCount: Int

    var trackCount: Int { files.count }

    /// Where the album's cover comes from.
    enum Cover: Sendable, Hashable {
        /// The front cover embedded in a track (the most common one among them).
        case embedded(ContentHash, file: Int)
        /// An image file in the album's folder (`cover.*`, `folder.*`, `front.*`).
        case folderImage(RawPath)
    }
}
