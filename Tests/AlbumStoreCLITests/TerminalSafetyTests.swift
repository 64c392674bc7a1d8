import Foundation
import Testing

/// Checks that `text` holds nothing that drives a terminal: no control character but the line
/// feeds that end lines, no DEL or C1 control, no line separator or bidi override.
func expectNothingRaw(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let raw = text.unicodeScalars.filter { scalar in
        switch scalar.value {
        case 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
    #expect(raw.isEmpty, "raw: \(raw.map { String($0.value, radix: 16) })", sourceLocation: sourceLocation)
}

/// Data that would forge table rows, recolour the terminal or rename its window is shown escaped,
/// in tables and in messages on stderr; the data formats keep it exact.
struct TerminalSafetyTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    /// A title with a line break that forges a row, a CR that overwrites it, a tab, BEL, DEL, a
    /// C1 CSI, an SGR colour, an OSC window title and a right-to-left override.
    static let evilTitle = "Evil\n9  Forged  Row\r\t\u{7}\u{7F}\u{9B}2J\u{1B}[31mred\u{1B}]0;pwned\u{7}\u{202E}desrever"
    static let evilShown = #"Evil\n9  Forged  Row\r\t\a\u{7f}\u{9b}2J\e[31mred\e]0;pwned\a\u{202e}desrever"#
    static let evilArtist = "Tab\tArtist\u{1B}[0m"
    static let evilArtistShown = #"Tab\tArtist\e[0m"#

    @Test func listShowsControlCharactersAndEscapeSequencesEscaped() throws {
        try store.add("Low", by: "David Bowie")
        try store.add(Self.evilTitle, by: Self.evilArtist)

        let result = try store.run("list")

        expectNothingRaw(result.stdout)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[2].hasPrefix("1  \(Self.evilArtistShown)  \(Self.evilShown)"))
    }

    @Test func showShowsControlCharactersAndEscapeSequencesEscaped() throws {
        let album = try store.add(Self.evilTitle, by: Self.evilArtist, "--genre", "\u{1B}[5mBlink")

        let result = try store.run("show", String(album.id))

        expectNothingRaw(result.stdout)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 11)   // ten fields and the final line feed
        #expect(lines.contains("Title        \(Self.evilShown)"))
        #expect(lines.contains("Artist       \(Self.evilArtistShown)"))
        #expect(lines.contains(#"Genre        \e[5mBlink"#))
    }

    @Test func historyShowsControlCharactersAndEscapeSequencesEscaped() throws {
        try store.add(Self.evilTitle, by: Self.evilArtist)
        try store.run("rm", "--at", "0")

        let result = try store.run("history")

        expectNothingRaw(result.stdout)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].hasSuffix("done   add “\(Self.evilShown)” by \(Self.evilArtistShown)"))
        #expect(lines[2].hasSuffix("done   delete “\(Self.evilShown)” by \(Self.evilArtistShown)"))
    }

    @Test func dataFormatsKeepControlCharactersExact() throws {
        try store.add(Self.evilTitle, by: Self.evilArtist)

        #expect(try store.albums().map(\.title) == [Self.evilTitle])
        let ndjson = try store.run("list", "--format", "ndjson")
        #expect(try decodeJSON(PrintedAlbum.self, from: ndjson.stdout).artist == Self.evilArtist)
        let csv = try store.run("list", "--format", "csv")
        #expect(csv.stdout.contains("\"\(Self.evilTitle)\""))
    }

    @Test func rmSaysWhatItDeletedEscaped() throws {
        let album = try store.add(Self.evilTitle, by: Self.evilArtist)

        let result = try store.run("rm", String(album.id))

        #expect(result.status == 0)
        #expect(result.stderr == "Deleted “\(Self.evilShown)” by \(Self.evilArtistShown). `albumstore undo` brings it back.\n")
    }

    @Test func undoAndRedoSayWhatTheyDidEscaped() throws {
        let album = try store.add(Self.evilTitle, by: Self.evilArtist)
        try store.run("rm", String(album.id))

        let undo = try store.run("undo")
        let redo = try store.run("redo")

        #expect(undo.stderr == "Undid: delete “\(Self.evilShown)” by \(Self.evilArtistShown). `albumstore redo` does it again.\n")
        #expect(redo.stderr == "Redid: delete “\(Self.evilShown)” by \(Self.evilArtistShown).\n")
    }

    @Test func mvSaysWhatItMovedEscaped() throws {
        try store.add("Low")
        let album = try store.add(Self.evilTitle, by: Self.evilArtist)

        let result = try store.run("mv", String(album.id), "--to", "0")

        #expect(result.stderr == "Moved “\(Self.evilShown)” by \(Self.evilArtistShown) to #0.\n")
    }

    @Test func anErrorThatEchoesInputIsOneEscapedLine() throws {
        let album = try store.add("Low")

        let result = try store.run("edit", String(album.id), "--cover-url", "ftp://a\u{1B}[31m\nb")

        expectRefused(result, saying: #"cover URL: ftp://a\e[31m\nb is not an http(s) or file URL"#)
    }

    @Test func anErrorThatEchoesStoredDataIsOneEscapedLine() throws {
        let externalID = "discogs:1\u{1B}]0;pwned\u{7}"
        let first = try store.add("Low", "--external-id", externalID)

        let result = try store.run("add", "--title", "Heroes", "--artist", "X", "--external-id", externalID)

        expectRefused(result, saying: #"external id: discogs:1\e]0;pwned\a already belongs to album "# + String(first.id))
    }

    @Test func aUsageErrorThatEchoesInputKeepsItsReasonOnOneEscapedLine() throws {
        let result = try store.run("rm", "4\u{1B}[31m\nforged line")

        #expect(result.status == 2)
        expectNothingRaw(result.stderr)
        #expect(result.stderr.hasPrefix(#"Error: The value '4\e[31m\nforged line' is invalid for '<id>'"# + "\n"))
        #expect(result.stderr.contains("\nUsage: albumstore rm"))
    }
}
