import AlbumStore
@testable import AlbumStoreCLI
import Foundation
import Testing

/// The cells of a table line and the display column each starts at: cells are what runs of two
/// or more spaces separate (the test data holds no double spaces).
func cellStarts(_ line: some StringProtocol) -> [(column: Int, text: String)] {
    var cells: [(column: Int, text: String)] = []
    var column = 0
    var spaces = 0
    for character in line {
        if character == " " {
            spaces += 1
        } else {
            if cells.isEmpty || spaces >= 2 {
                cells.append((column, ""))
            } else if spaces == 1 {
                cells[cells.count - 1].text += " "
            }
            spaces = 0
            cells[cells.count - 1].text.append(character)
        }
        column += DisplayWidth.of(character)
    }
    return cells
}

/// Checks that every line has `count` cells, each starting at the same display column as in the
/// first line: the columns line up as a terminal shows them.
func expectAligned(_ output: String, cells count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    let lines = output.split(separator: "\n").map(cellStarts)
    #expect(lines.count > 1, sourceLocation: sourceLocation)
    for line in lines {
        #expect(line.count == count, "\(line.map(\.text))", sourceLocation: sourceLocation)
        #expect(line.map(\.column) == lines[0].map(\.column), "\(line.map(\.text))", sourceLocation: sourceLocation)
    }
}

/// Tables line up by terminal display width, and one long cell does not pad every row.
struct TableOutputTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    static let family = "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"   // 👩‍👩‍👧‍👦
    static let thumbsUp = "\u{1F44D}\u{1F3FD}"                                          // 👍🏽

    /// Albums whose titles and artists are combining marks, ZWJ emoji, skin tones and CJK, every
    /// field given so no cell is empty.
    private func addAlbumsOfManyScripts() throws -> [PrintedAlbum] {
        [
            try store.add("Vespertine", by: "Bjo\u{308}rk", "--genre", "Electronic", "--year", "2001",
                          "--cover-url", "https://example.com/v.jpg", "--external-id", "d:1"),
            try store.add("Playing the Piano", by: "坂本龍一", "--genre", "Classical", "--year", "2009",
                          "--cover-url", "https://example.com/坂本.jpg", "--external-id", "d:2"),
            try store.add("\(Self.family) Family", by: "\(Self.thumbsUp) Thumbs", "--genre", "Pop", "--year", "2020",
                          "--cover-url", "https://example.com/f.jpg", "--external-id", "d:3"),
            try store.add("Low", by: "David Bowie", "--genre", "Rock", "--year", "1977",
                          "--cover-url", "https://example.com/low.jpg", "--external-id", "d:4"),
        ]
    }

    @Test func listLinesUpCombiningMarksEmojiAndCJKByDisplayWidth() throws {
        _ = try addAlbumsOfManyScripts()

        let result = try store.run("list")

        #expect(result.status == 0)
        expectAligned(result.stdout, cells: 6)
        // Björk takes 5 columns, 坂本龍一 8, 👍🏽 and 👩‍👩‍👧‍👦 2 each: the spaces make up the rest.
        #expect(result.stdout == """
            #  Artist       Album              Genre       Year  ID
            0  Bjo\u{308}rk        Vespertine         Electronic  2001  1
            1  坂本龍一     Playing the Piano  Classical   2009  2
            2  \(Self.thumbsUp) Thumbs    \(Self.family) Family          Pop         2020  3
            3  David Bowie  Low                Rock        1977  4

            """)
    }

    @Test func historyLinesUpCombiningMarksEmojiAndCJKByDisplayWidth() throws {
        _ = try addAlbumsOfManyScripts()

        let result = try store.run("history")

        #expect(result.status == 0)
        expectAligned(result.stdout, cells: 4)
    }

    @Test func showLinesUpItsValuesWhateverTheScript() throws {
        let albums = try addAlbumsOfManyScripts()

        for album in albums {
            let result = try store.run("show", String(album.id))

            #expect(result.status == 0)
            expectAligned(result.stdout, cells: 2)
        }
    }

    @Test func oneHugeCellDoesNotPadEveryOtherRow() throws {
        let huge = String(String(repeating: "Long title ", count: 12_000).prefix(131_071))
        let library = try Library.open(at: URL(fileURLWithPath: store.db))
        try library.albums.append(contentsOf: (0..<2_000).map { index in
            AlbumDraft(title: "Album \(index)", artist: "Artist", genre: "Rock", year: 1977)
        })
        // One in the rows that set the widths, one after them; past the library's length limit,
        // so written as another program would.
        try SQLiteShell.run("""
            UPDATE albums SET title = substr(replace(printf('%.*c', 12000, 'x'), 'x', 'Long title '), 1, 131071)
            WHERE title IN ('Album 0', 'Album 1500')
            """, on: store.db)

        let result = try store.run("list")

        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2_001)
        // Printed whole (stdout is not a terminal), twice, and nothing else is longer than a
        // column padded to the 60-column cap would make it.
        #expect(lines.filter { $0.contains(huge) }.count == 2)
        #expect(lines.filter { !$0.contains(huge) }.allSatisfy { $0.utf8.count <= 100 })
        #expect(result.stdout.utf8.count < 2 * huge.utf8.count + 2_000 * 100)
        // The cells after the huge one follow it two spaces on; the other rows keep their columns.
        #expect(lines[1] == "0     Artist  \(huge)  Rock  1977  1")   // # is as wide as 1999
        expectAligned(lines.filter { !$0.contains(huge) }.joined(separator: "\n"), cells: 6)
    }

    @Test(arguments: ["list", "show", "history"])
    func helpStatesTheTableRules(command: String) throws {
        let result = try store.run(command, "--help")

        let help = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("--wide"))
        #expect(help.contains("Column widths come from the first 1000 rows"))
        #expect(help.contains("long cells are cut with … to fit its width"))
        #expect(help.contains("a column is padded to at most 60 columns, and a longer cell"))
        #expect(help.contains(#"shown escaped (\n, \t, \e, \u{9b}, \u{202e})"#))
    }

    @Test func dataFormatsKeepLongCellsWhole() throws {
        let long = Array(repeating: "坂本龍一", count: 40).joined(separator: " ")
        try store.add(long, by: "Artist")

        for format in ["csv", "tsv", "json", "ndjson"] {
            let result = try store.run("list", "--format", format)
            #expect(result.stdout.contains(long))
            #expect(!result.stdout.contains("…"))
        }
    }
}
