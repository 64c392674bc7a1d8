import Foundation
import TestSupport
import Testing
@testable import AlbumStore

/// Library.xml read as the Music app shows it: tracks grouped into albums, compilations under
/// Various Artists, the most common genre and year, and what is not music counted, not imported.
struct LibraryXMLReaderTests {
    /// A track dictionary; `flags` become `<true/>` keys.
    static func track(_ id: Int, _ fields: [(String, String)], flags: [String] = []) -> String {
        var lines = ["\t\t<key>\(id)</key>", "\t\t<dict>", "\t\t\t<key>Track ID</key><integer>\(id)</integer>"]
        for (key, value) in fields {
            let element = key == "Year" ? "integer" : "string"
            let escaped = value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            lines.append("\t\t\t<key>\(key)</key><\(element)>\(escaped)</\(element)>")
        }
        for flag in flags { lines.append("\t\t\t<key>\(flag)</key><true/>") }
        lines.append("\t\t\t<key>Explicit</key><false/>")
        lines.append("\t\t</dict>")
        return lines.joined(separator: "\n")
    }

    static func library(_ tracks: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>Major Version</key><integer>1</integer>
        \t<key>Application Version</key><string>1.3.5</string>
        \t<key>Tracks</key>
        \t<dict>
        \(tracks.joined(separator: "\n"))
        \t</dict>
        \t<key>Playlists</key>
        \t<array>
        \t\t<dict><key>Name</key><string>Library</string><key>Playlist Items</key><array><dict><key>Track ID</key><integer>1</integer></dict></array></dict>
        \t</array>
        </dict>
        </plist>

        """
    }

    private func read(_ text: String, chunkSize: Int = 64 * 1024) throws -> (ReadCatalog, [String: Int]) {
        var reader = try LibraryXMLReader(over: try CatalogInput(text, chunkSize: chunkSize))
        var records: [CatalogRecord] = []
        while let record = try reader.next() { records.append(record) }
        return (ReadCatalog(columns: reader.columns, records: records), reader.skippedNotMusic)
    }

    @Test(arguments: [7, 64 * 1024])
    func tracksAreGroupedIntoAlbumsByAlbumArtistAndTitleInOrderOfFirstAppearance(chunkSize: Int) throws {
        let text = Self.library([
            Self.track(1, [("Name", "Warszawa"), ("Artist", "David Bowie"), ("Album", "Low"), ("Genre", "Rock"), ("Year", "1977")]),
            Self.track(2, [("Name", "Heroes"), ("Artist", "David Bowie"), ("Album", "\"Heroes\""), ("Genre", "Rock"), ("Year", "1977")]),
            Self.track(3, [("Name", "Sound and Vision"), ("Artist", "Bowie & Eno"), ("Album Artist", "David Bowie"), ("Album", "Low"), ("Genre", "Art Rock"), ("Year", "1977")]),
            Self.track(4, [("Name", "Subterraneans"), ("Artist", "David Bowie"), ("Album", "Low"), ("Genre", "Art Rock"), ("Year", "1991")]),
            Self.track(5, [("Name", "Speed of Life"), ("Artist", "David Bowie"), ("Album", "Low"), ("Genre", "Art Rock")]),
            Self.track(6, [("Name", "Low"), ("Artist", "Cracker"), ("Album", "Low")]),
        ])

        let (catalog, skipped) = try read(text, chunkSize: chunkSize)

        #expect(catalog.columns == ["title", "artist", "genre", "year"])
        #expect(catalog.rows == [
            ["title": "Low", "artist": "David Bowie", "genre": "Art Rock", "year": "#1977"],
            ["title": "\"Heroes\"", "artist": "David Bowie", "genre": "Rock", "year": "#1977"],
            ["title": "Low", "artist": "Cracker"],
        ])
        #expect(catalog.lines == [10, 20, 60], "the line of each album's first track dictionary")
        #expect(skipped.isEmpty)
    }

    @Test func aCompilationIsOneAlbumUnderVariousArtistsWhateverItsTracksArtists() throws {
        let text = Self.library([
            Self.track(1, [("Artist", "Blondie"), ("Album", "Now 1"), ("Genre", "Pop"), ("Year", "1983")], flags: ["Compilation"]),
            Self.track(2, [("Artist", "Madness"), ("Album", "Now 1"), ("Genre", "Ska"), ("Year", "1983")], flags: ["Compilation"]),
            Self.track(3, [("Artist", "UB40"), ("Album Artist", "UB40"), ("Album", "Now 1"), ("Genre", "Reggae")], flags: ["Compilation"]),
            Self.track(4, [("Artist", "Madness"), ("Album", "Now 1")]),
        ])
        let (catalog, _) = try read(text)
        #expect(catalog.rows == [
            ["title": "Now 1", "artist": "Various Artists", "genre": "Pop", "year": "#1983"],
            ["title": "Now 1", "artist": "Madness"],
        ])
    }

    @Test func videosMoviesTVShowsPodcastsAudiobooksAndTracksWithoutAnAlbumAreCountedNotRead() throws {
        let text = Self.library([
            Self.track(1, [("Artist", "A"), ("Album", "Clips")], flags: ["Has Video"]),
            Self.track(2, [("Artist", "A"), ("Album", "Clips 2"), ("Kind", "MPEG-4 video file")], flags: ["Has Video"]),
            Self.track(3, [("Name", "Film"), ("Album", "Film")], flags: ["Movie", "Has Video"]),
            Self.track(4, [("Name", "Show"), ("Album", "Season 1")], flags: ["TV Show", "Has Video"]),
            Self.track(5, [("Name", "Episode"), ("Album", "Cast")], flags: ["Podcast"]),
            Self.track(6, [("Name", "Chapter 1"), ("Album", "Book"), ("Kind", "Protected AudioBook file")]),
            Self.track(7, [("Name", "Chapter 2"), ("Album", "Book 2"), ("Genre", "Audiobooks")]),
            Self.track(8, [("Name", "Single"), ("Artist", "B")]),
            Self.track(9, [("Name", "Single 2"), ("Artist", "B"), ("Album", " ")]),
            Self.track(10, [("Name", "Song"), ("Artist", "C"), ("Album", "Record")]),
        ])
        let (catalog, skipped) = try read(text)
        #expect(catalog.rows == [["title": "Record", "artist": "C"]])
        #expect(skipped == ["videos": 2, "movies": 1, "TV shows": 1, "podcasts": 1, "audiobooks": 2, "tracks without an album": 2])
    }

    @Test func aTieOfGenresOrYearsGoesToTheFirstSeen() throws {
        let text = Self.library([
            Self.track(1, [("Artist", "A"), ("Album", "X"), ("Genre", "Jazz"), ("Year", "1960")]),
            Self.track(2, [("Artist", "A"), ("Album", "X"), ("Genre", "Blues"), ("Year", "1961")]),
            Self.track(3, [("Artist", "A"), ("Album", "X"), ("Genre", "Blues"), ("Year", "1961")]),
            Self.track(4, [("Artist", "A"), ("Album", "X"), ("Genre", "Jazz"), ("Year", "1960")]),
        ])
        let (catalog, _) = try read(text)
        #expect(catalog.rows == [["title": "X", "artist": "A", "genre": "Jazz", "year": "#1960"]])
    }

    @Test func entitiesAreDecoded() throws {
        let (catalog, _) = try read(Self.library([Self.track(1, [("Artist", "Simon & Garfunkel"), ("Album", "<Bridge>")])]))
        #expect(catalog.rows == [["title": "<Bridge>", "artist": "Simon & Garfunkel"]])
    }

    @Test(arguments: [1, 5, 64 * 1024])
    func predefinedEntitiesAndCharacterReferencesAreDecodedInValues(chunkSize: Int) throws {
        let track = """
            \t\t<key>1</key>
            \t\t<dict>
            \t\t\t<key>Artist</key><string>A &amp; B &#233;</string>
            \t\t\t<key>Album</key><string>&lt;Live&gt; &#x1F3B5;<![CDATA[ & more]]></string>
            \t\t</dict>
            """
        let (catalog, _) = try read(Self.library([track]), chunkSize: chunkSize)
        #expect(catalog.rows == [["title": "<Live> 🎵 & more", "artist": "A & B é"]])
    }

    @Test func whatFollowsTheTracksDictionaryIsNeverRead() throws {
        let text = Self.library([Self.track(1, [("Artist", "A"), ("Album", "X")])])
            .replacingOccurrences(of: "<key>Playlists</key>", with: "<key>Playlists</key> & </broken> <")
        let (catalog, _) = try read(text)
        #expect(catalog.rows == [["title": "X", "artist": "A"]])
    }

    @Test func keysAndValuesOutsideATrackDoNotMakeOne() throws {
        let text = Self.library([
            "\t\t<key>Album</key><string>Not a track</string>",
            Self.track(1, [("Artist", "A"), ("Album", "X"), ("Comments", "Album")]),
            "\t\t<key>2</key><dict><key>Album</key><array><string>Y</string></array><key>Artist</key><string>B</string></dict>",
        ])
        let (catalog, skipped) = try read(text)
        #expect(catalog.rows == [["title": "X", "artist": "A"]])
        #expect(skipped == ["tracks without an album": 1], "an album that is not a string is no album")
    }

    @Test func brokenXMLIsACatalogErrorWithALine() throws {
        let text = "<?xml version=\"1.0\"?>\n<plist>\n<dict>\n<key>Tracks</key>\n<dict>\n<key>1</key><dict><key>Album</key></string>\n"
        #expect(throws: CatalogError(line: 6, reason: "is not well-formed XML (end tag </string> does not match <dict> opened at line 6)")) {
            try read(text)
        }
    }

    @Test func aLibraryThatEndsInsideTracksIsAnErrorAtItsEnd() throws {
        let text = Self.library([Self.track(1, [("Artist", "A"), ("Album", "X")])])
        let cut = text.components(separatedBy: "\t</dict>\n\t<key>Playlists")[0]   // after the track, before Tracks ends
        #expect(throws: CatalogError(line: 16, reason: "is not well-formed XML (the file ends inside <dict> opened at line 8)")) {
            try read(cut)
        }
    }

    @Test func aPropertyListWithoutTracksIsNotALibrary() throws {
        #expect(throws: CatalogError(line: 5, reason: "is not a Library.xml: it has no Tracks dictionary")) {
            try read("<?xml version=\"1.0\"?>\n<plist>\n<dict><key>Other</key><string>x</string></dict>\n</plist>\n")
        }
    }

    @Test func theFormatIsDetectedAndItsReaderReadsTheFile() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("Library.xml")
        try Self.library([Self.track(1, [("Artist", "A"), ("Album", "X")])]).write(to: file, atomically: true, encoding: .utf8)
        let input = try CatalogInput(path: file.path)
        let format = CatalogFormat.detect(fileName: nil, head: input.head)
        #expect(format == .libraryXML)
        var reader = try format.reader(over: input)
        #expect(try reader.next()?.values.count == 2)
        #expect(try reader.next() == nil)
        #expect(reader.bytesRead > 0)
    }
}
