/// Tracks of a Library.xml grouped into albums the way the Music app groups them.
///
/// An album is its album artist (else its artist) and its album title; a compilation is one album
/// under "Various Artists" whatever its tracks' artists, told by its title alone. Its genre and
/// year are the most common among its tracks (a tie goes to the one seen first). Videos, movies,
/// TV shows, podcasts, audiobooks and tracks without an album are left out and counted by kind.
/// Memory grows with the albums, not the tracks: a track is folded in and forgotten.
struct LibraryAlbums {
    /// A track's fields as the Library.xml gives them (absent keys are `nil`).
    struct Track {
        var name: String?
        var artist: String?
        var albumArtist: String?
        var album: String?
        var genre: String?
        var year: String?
        var kind: String?
        var isCompilation = false
        var hasVideo = false
        var isMovie = false
        var isTVShow = false
        var isPodcast = false
        /// The line of the track's `<dict>`.
        var line = 0
    }

    /// One album and the tallies that choose its genre and year.
    struct Album {
        var title: String
        var artist: String?
        var line: Int
        var genres = ValueTally()
        var years = ValueTally()
    }

    private(set) var albums: [Album] = []
    private var indexByKey: [String: Int] = [:]
    /// Tracks left out, by kind ("videos", "podcasts", "tracks without an album", ...).
    private(set) var skipped: [String: Int] = [:]

    static let compilationArtist = "Various Artists"

    mutating func add(_ track: Track) {
        if let kind = Self.notMusic(track) {
            skipped[kind, default: 0] += 1
            return
        }
        guard let title = track.album, !title.trimmingWhitespace().isEmpty else {
            skipped["tracks without an album", default: 0] += 1
            return
        }
        let artist = track.isCompilation ? Self.compilationArtist : nonEmpty(track.albumArtist) ?? nonEmpty(track.artist)
        // Keys keep the two kinds apart: a compilation is known by its title alone.
        let key = track.isCompilation ? "c\u{0}\(title)" : "a\u{0}\(artist ?? "")\u{0}\(title)"
        let index: Int
        if let known = indexByKey[key] {
            index = known
        } else {
            index = albums.count
            indexByKey[key] = index
            albums.append(Album(title: title, artist: artist, line: track.line))
        }
        if let genre = nonEmpty(track.genre) { albums[index].genres.count(genre) }
        if let year = nonEmpty(track.year), year != "0" { albums[index].years.count(year) }
    }

    /// The kind a track is counted under when it is not music, or `nil` for music.
    private static func notMusic(_ track: Track) -> String? {
        // The specific kinds first: a movie or a video podcast also has video.
        if track.isMovie { return "movies" }
        if track.isTVShow { return "TV shows" }
        if track.isPodcast { return "podcasts" }
        if track.kind?.lowercased().contains("audiobook") == true || track.genre == "Audiobooks" || track.genre == "Audiobook" {
            return "audiobooks"
        }
        if track.hasVideo { return "videos" }
        return nil
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmingWhitespace().isEmpty else { return nil }
        return text
    }
}
