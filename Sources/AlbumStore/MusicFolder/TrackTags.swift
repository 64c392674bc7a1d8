import FoundationEssentials
import CTagReader

/// What one audio file's tags say, as read by TagLib (`CTagReader`). Text is trimmed; absent
/// text is `nil`, absent numbers 0.
struct TrackTags: Sendable, Hashable {
    var album: String?
    var albumArtist: String?
    var artist: String?
    var title: String?
    var genre: String?
    var year = 0
    var originalYear = 0
    var track = 0
    var trackTotal = 0
    var disc = 0
    var discTotal = 0
    var isCompilation = false
    var musicBrainzReleaseID: String?
    var musicBrainzReleaseGroupID: String?
    var durationMS: Int64 = 0

    /// Whether the file has none of the tags that name an album.
    var isUntagged: Bool { album == nil && albumArtist == nil && artist == nil && title == nil }

    /// The year the album was first released: the original year where tagged, else the date's.
    var releaseYear: Int? {
        let year = originalYear != 0 ? originalYear : self.year
        return (1000...9999).contains(year) ? year : nil
    }

    /// A file's tags and its embedded front cover (nil when it has none).
    struct Reading: Sendable {
        var tags: TrackTags
        var picture: Data?
        /// The embedded picture's size when it was over the limit and not read.
        var oversizedPicture: Int?
    }

    /// Reads the file at `path`; pictures over `pictureLimit` bytes are not read.
    /// - Returns: The reading, or the reason the file cannot be read.
    static func read(_ path: RawPath, pictureLimit: Int) -> Result<Reading, FileReadError> {
        var raw = albumstore_tags()
        var reason = [CChar](repeating: 0, count: 256)
        let status = path.withCString { albumstore_read_tags($0, pictureLimit, &raw, &reason, reason.count) }
        defer { albumstore_tags_free(&raw) }
        guard status == 0 else {
            let text = reason.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            return .failure(FileReadError(reason: text.isEmpty ? "cannot be read" : text))
        }
        var tags = TrackTags()
        tags.album = text(raw.album)
        tags.albumArtist = text(raw.album_artist)
        tags.artist = text(raw.artist)
        tags.title = text(raw.title)
        tags.genre = text(raw.genre)
        tags.year = Int(raw.year)
        tags.originalYear = Int(raw.original_year)
        tags.track = Int(raw.track)
        tags.trackTotal = Int(raw.track_total)
        tags.disc = Int(raw.disc)
        tags.discTotal = Int(raw.disc_total)
        tags.isCompilation = raw.compilation != 0
        tags.musicBrainzReleaseID = text(raw.musicbrainz_release_id)?.lowercased()
        tags.musicBrainzReleaseGroupID = text(raw.musicbrainz_release_group_id)?.lowercased()
        tags.durationMS = max(0, raw.duration_ms)
        var reading = Reading(tags: tags)
        if let picture = raw.picture, raw.picture_size > 0 {
            reading.picture = Data(bytes: picture, count: raw.picture_size)
        } else if raw.picture_size > pictureLimit {
            reading.oversizedPicture = raw.picture_size
        }
        return .success(reading)
    }

    /// A tag's text, trimmed; `nil` when absent or blank.
    private static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        let text = String(cString: pointer).trimmingWhitespace()
        return text.isEmpty ? nil : text
    }
}

/// Why an audio file could not be read.
struct FileReadError: Error, Sendable {
    let reason: String
}
