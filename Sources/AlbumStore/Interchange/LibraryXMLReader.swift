// Not Foundation: FoundationXML's libxml2 and ICU cost every start of the binary (see XMLScanner).
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// Reads an iTunes / Apple Music `Library.xml` as albums: records with the columns `title`,
/// `artist`, `genre` and `year`, in the order their first track appears, each at the line of
/// that track.
///
/// The file is a property list whose top dictionary has `Tracks`, a dictionary of track
/// dictionaries (`Name`, `Artist`, `Album Artist`, `Album`, `Genre`, `Year`, `Compilation`,
/// `Kind`, `Has Video`, `Movie`, `TV Show`, `Podcast`, ...). Tracks are grouped as
/// `LibraryAlbums` says; what is not music is counted in `skippedNotMusic`.
///
/// Read as a stream by `XMLScanner` over the decoded input (not Foundation's `XMLParser`, whose
/// libxml2 and ICU every start of the binary paid for): peak RSS stays flat whatever the file's
/// size. Reading stops at the end of `Tracks` (the `Playlists` after it are never read), and only
/// the values of the keys above become Strings. Since an album's genre and year need all of its
/// tracks, the reader reads the whole Tracks dictionary when it is made; memory grows with the
/// albums, not the tracks.
struct LibraryXMLReader: CatalogReader {
    let columns = ["title", "artist", "genre", "year"]
    private let input: CatalogInput
    private let albums: [LibraryAlbums.Album]
    private var nextAlbum = 0
    let skippedNotMusic: [String: Int]

    var bytesRead: Int { input.bytesRead }

    /// A reader of `input`, which it reads whole at once: an album's genre and year need all of
    /// its tracks anyway, and the import makes the reader before it takes the library's write
    /// lock, so writers of other processes do not wait while the file is read.
    ///
    /// - Throws: `CatalogError` where the XML is not well-formed, or when it has no Tracks.
    init(over input: CatalogInput) throws {
        self.input = input
        let library = try Self.parse(input)
        albums = library.albums
        skippedNotMusic = library.skipped
    }

    mutating func next() throws -> CatalogRecord? {
        guard nextAlbum < albums.count else { return nil }
        let album = albums[nextAlbum]
        nextAlbum += 1
        var values: [(column: Int, value: SourceValue)] = [(0, .text(album.title))]
        if let artist = album.artist { values.append((1, .text(artist))) }
        if let genre = album.genres.mostCommon { values.append((2, .text(genre))) }
        if let year = album.years.mostCommon { values.append((3, .number(year))) }
        return CatalogRecord(line: album.line, values: values, problem: nil)
    }

    private static func parse(_ input: CatalogInput) throws -> LibraryAlbums {
        var scanner = XMLScanner(over: input)
        var collector = TrackCollector()
        try collector.collect(from: &scanner)
        guard collector.sawTracks else {
            throw CatalogError(line: scanner.line, reason: "is not a Library.xml: it has no Tracks dictionary")
        }
        return collector.library
    }
}

/// Follows the property list's nesting to the track dictionaries and hands each track to
/// `LibraryAlbums`.
///
/// Depths as `XMLScanner` counts them: 1 is `<plist>`, 2 its top `<dict>`, 3 the top dictionary's
/// keys and values (Tracks among them), 4 the keys and track dictionaries in Tracks, 5 a track's
/// keys and values.
private struct TrackCollector {
    private(set) var library = LibraryAlbums()
    /// The Tracks dictionary was met.
    private(set) var sawTracks = false

    /// Inside the Tracks dictionary: `collect` returns at its end.
    private var inTracks = false
    /// The top dictionary's key being read is `Tracks`.
    private var keyIsTracks = false
    /// The top dictionary's last element was the key `Tracks`: a `<dict>` now is the tracks.
    private var afterTracksKey = false
    private var track: LibraryAlbums.Track?
    /// The field the track's last key names, when it is one that is read.
    private var field: TrackField?
    /// The text of the track's value being read.
    private var value: String?

    /// Reads up to the end of the Tracks dictionary, or of the document when it has none.
    ///
    /// - Throws: `CatalogError` where the XML is not well-formed, up to there.
    mutating func collect(from scanner: inout XMLScanner) throws {
        while true {
            switch try scanner.next() {
            case .startTag:
                start(scanner)
            case .text:
                try text(&scanner)
            case .endTag:
                if inTracks && scanner.depth == 3 { return }
                end(scanner)
            case .endOfDocument:
                return
            }
        }
    }

    private mutating func start(_ scanner: XMLScanner) {
        switch scanner.depth {
        case 3 where !inTracks:
            if afterTracksKey && scanner.isNamed("dict") {
                inTracks = true
                sawTracks = true
            }
            keyIsTracks = false
        case 4 where inTracks:
            if scanner.isNamed("dict") { track = LibraryAlbums.Track(line: scanner.tagLine) }
        case 5 where track != nil:
            value = nil
            if scanner.isNamed("key") {
                field = nil
            } else if scanner.isNamed("true") || scanner.isNamed("false") {
                setFlag(scanner.isNamed("true"))
            }
        default:
            break
        }
    }

    private mutating func text(_ scanner: inout XMLScanner) throws {
        switch scanner.depth {
        case 3 where !inTracks && scanner.isNamed("key"):
            keyIsTracks = try scanner.readText { $0.elementsEqual("Tracks".utf8) }
        case 5 where track != nil:
            if scanner.isNamed("key") {
                field = try scanner.readText { TrackField(key: $0) }
            } else if field?.isText == true && !scanner.isNamed("dict") && !scanner.isNamed("array") {
                value = try scanner.readText()
            }
        default:
            break
        }
    }

    private mutating func end(_ scanner: XMLScanner) {
        switch scanner.depth {
        case 3 where !inTracks:
            afterTracksKey = keyIsTracks && scanner.isNamed("key")
        case 4 where track != nil && scanner.isNamed("dict"):
            if let track { library.add(track) }
            track = nil
        case 5 where track != nil && !scanner.isNamed("key"):
            setText(value ?? "")
            field = nil
        default:
            break
        }
    }

    private mutating func setFlag(_ flag: Bool) {
        switch field {
        case .compilation: track?.isCompilation = flag
        case .hasVideo: track?.hasVideo = flag
        case .movie: track?.isMovie = flag
        case .tvShow: track?.isTVShow = flag
        case .podcast: track?.isPodcast = flag
        default: break
        }
    }

    private mutating func setText(_ text: String) {
        switch field {
        case .name: track?.name = text
        case .artist: track?.artist = text
        case .albumArtist: track?.albumArtist = text
        case .album: track?.album = text
        case .genre: track?.genre = text
        case .year: track?.year = text.trimmingWhitespace()
        case .kind: track?.kind = text
        default: break
        }
    }
}

/// The keys of a track dictionary that are read; the others are stepped over.
private enum TrackField {
    case name, artist, albumArtist, album, genre, year, kind
    case compilation, hasVideo, movie, tvShow, podcast

    private static let keys: [(key: [UInt8], field: TrackField)] = [
        ("Name", .name), ("Artist", .artist), ("Album Artist", .albumArtist), ("Album", .album), ("Genre", .genre),
        ("Year", .year), ("Kind", .kind), ("Compilation", .compilation), ("Has Video", .hasVideo), ("Movie", .movie),
        ("TV Show", .tvShow), ("Podcast", .podcast),
    ].map { (Array($0.utf8), $1) }

    /// The field `key` names, compared as bytes (most keys are none, and need no String).
    init?(key: UnsafeBufferPointer<UInt8>) {
        guard let known = Self.keys.first(where: { $0.key.count == key.count && $0.key.elementsEqual(key) }) else { return nil }
        self = known.field
    }

    /// Whether the value is a text (`<string>`, `<integer>`) rather than `<true/>` or `<false/>`.
    var isText: Bool {
        switch self {
        case .name, .artist, .albumArtist, .album, .genre, .year, .kind: true
        case .compilation, .hasVideo, .movie, .tvShow, .podcast: false
        }
    }
}
