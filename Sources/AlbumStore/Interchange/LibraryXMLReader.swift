import Foundation
#if canImport(FoundationXML)
import FoundationXML
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
/// Parsed as a stream by Foundation's `XMLParser(stream:)` over the decoded input: measured on a
/// generated 186 MB Library.xml (250,000 tracks), peak RSS stayed at 22 MB, as for an 18 MB one.
/// Parsing stops at the end of `Tracks` (the `Playlists` after it are never read). Since an
/// album's genre and year need all of its tracks, the first `next()` reads the whole Tracks
/// dictionary; memory grows with the albums, not the tracks.
struct LibraryXMLReader: CatalogReader {
    let columns = ["title", "artist", "genre", "year"]
    private let input: CatalogInput
    private var albums: [LibraryAlbums.Album]?
    private var nextAlbum = 0
    private(set) var skippedNotMusic: [String: Int] = [:]

    var bytesRead: Int { input.bytesRead }

    init(over input: CatalogInput) {
        self.input = input
    }

    mutating func next() throws -> CatalogRecord? {
        if albums == nil {
            let library = try Self.parse(input)
            albums = library.albums
            skippedNotMusic = library.skipped
        }
        guard let albums, nextAlbum < albums.count else { return nil }
        let album = albums[nextAlbum]
        nextAlbum += 1
        var values: [(column: Int, value: SourceValue)] = [(0, .text(album.title))]
        if let artist = album.artist { values.append((1, .text(artist))) }
        if let genre = LibraryAlbums.mostCommon(album.genres) { values.append((2, .text(genre))) }
        if let year = LibraryAlbums.mostCommon(album.years) { values.append((3, .number(year))) }
        return CatalogRecord(line: album.line, values: values, problem: nil)
    }

    private static func parse(_ input: CatalogInput) throws -> LibraryAlbums {
        let stream = CatalogInputStream(input)
        let parser = XMLParser(stream: stream)
        let collector = TrackCollector()
        parser.delegate = collector
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if let failure = stream.failure { throw failure }
        if !parsed && !collector.finished {
            let reason = collector.failure ?? parser.parserError.map { "is not well-formed XML (\(Self.describe($0)))" }
                ?? "is not well-formed XML"
            throw CatalogError(line: max(parser.lineNumber, 1), reason: reason)
        }
        guard collector.sawTracks else {
            throw CatalogError(line: max(parser.lineNumber, 1), reason: "is not a Library.xml: it has no Tracks dictionary")
        }
        return collector.library
    }

    private static func describe(_ error: any Error) -> String {
        let code = (error as NSError).code
        return "XMLParser error \(code)"
    }
}

/// The parser's delegate: follows the property list's nesting to the track dictionaries and
/// hands each track to `LibraryAlbums`.
private final class TrackCollector: NSObject, XMLParserDelegate {
    var library = LibraryAlbums()
    /// The Tracks dictionary was met.
    private(set) var sawTracks = false
    /// Its end was reached: the collector stopped the parser there.
    private(set) var finished = false
    /// Why the file is not a Library.xml, when the collector stopped the parser for that.
    private(set) var failure: String?

    /// Elements open: 1 inside `<plist>`, 2 inside the top `<dict>`, 3 inside Tracks, 4 inside a track.
    private var depth = 0
    private var text = ""
    private var capturing = false
    private var lastTopKey: String?
    private var inTracks = false
    private var track: LibraryAlbums.Track?
    private var trackKey: String?

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        depth += 1
        switch depth {
        case 3 where !inTracks:
            if element == "dict" && lastTopKey == "Tracks" {
                inTracks = true
                sawTracks = true
            }
            capturing = element == "key"
        case 4 where inTracks:
            if element == "dict" { track = LibraryAlbums.Track(line: parser.lineNumber) }
            capturing = false
        case 5 where track != nil:
            capturing = element != "dict" && element != "array"
            if element == "true" || element == "false" { setFlag(element == "true") }
        default:
            capturing = false
        }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capturing { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        defer {
            depth -= 1
            capturing = false
        }
        switch depth {
        case 3 where !inTracks:
            if element == "key" { lastTopKey = text } else { lastTopKey = nil }
        case 3 where inTracks && element == "dict":
            finished = true
            parser.abortParsing()
        case 4 where element == "dict":
            if let track { library.add(track) }
            track = nil
        case 5 where track != nil:
            if element == "key" {
                trackKey = text
            } else {
                setValue(text)
                trackKey = nil
            }
        default:
            break
        }
    }

    private func setFlag(_ value: Bool) {
        switch trackKey {
        case "Compilation": track?.isCompilation = value
        case "Has Video": track?.hasVideo = value
        case "Movie": track?.isMovie = value
        case "TV Show": track?.isTVShow = value
        case "Podcast": track?.isPodcast = value
        default: break
        }
    }

    private func setValue(_ value: String) {
        switch trackKey {
        case "Name": track?.name = value
        case "Artist": track?.artist = value
        case "Album Artist": track?.albumArtist = value
        case "Album": track?.album = value
        case "Genre": track?.genre = value
        case "Year": track?.year = value.trimmingWhitespace()
        case "Kind": track?.kind = value
        default: break
        }
    }
}
