@testable import AlbumStoreCLI
import Foundation
import Testing

/// On a terminal, long cells are cut with … to its width; `--wide`, and any stdout that is not a
/// terminal, shows them whole. Run on real pseudo-terminals.
@Suite(.enabled(if: PseudoTerminal.isAvailable, "needs python3 for a pseudo-terminal"))
struct TerminalWidthTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    static let longTitle = Array(repeating: "坂本龍一", count: 12).joined(separator: " ")        // 107 columns
    static let longArtist = "Bjo\u{308}rk Guðmundsdóttir & the Sugarcubes & \u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466} Friends"

    @discardableResult
    private func addLongAlbums() throws -> PrintedAlbum {
        try store.add("Low", by: "David Bowie", "--genre", "Rock", "--year", "1977")
        return try store.add(Self.longTitle, by: Self.longArtist, "--genre", "Electronic", "--year", "2001")
    }

    /// Checks that no line is wider than `columns` display columns, and no cut split a character.
    private func expectLines(of output: String, fit columns: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        for line in output.split(separator: "\n") {
            #expect(DisplayWidth.of(String(line)) <= columns, "\(line)", sourceLocation: sourceLocation)
        }
        #expect(!output.contains("\u{FFFD}"), sourceLocation: sourceLocation)
    }

    @Test func listCutsLongCellsWithAnEllipsisToTheTerminalsWidth() throws {
        try addLongAlbums()

        let result = try PseudoTerminal.run(store.cli, ["list"], columns: 60)

        #expect(result.status == 0)
        expectLines(of: result.stdout, fit: 60)
        #expect(!result.stdout.contains(Self.longTitle))
        #expect(result.stdout.contains("坂本龍一 坂"))
        #expect(result.stdout.contains("…"))
        #expect(result.stdout.contains("Bjo\u{308}rk"))   // the combining mark is kept with its letter
        // The cut columns still line up.
        expectAligned(result.stdout, cells: 6)
        // The widest columns gave way; the narrow ones are whole.
        #expect(result.stdout.contains("Electronic  2001  2"))
    }

    @Test func wideShowsEveryCellWholeOnATerminal() throws {
        try addLongAlbums()

        let result = try PseudoTerminal.run(store.cli, ["list", "--wide"], columns: 60)

        #expect(result.stdout.contains(Self.longTitle))
        #expect(result.stdout.contains(Self.longArtist))
        #expect(!result.stdout.contains("…"))
    }

    @Test func columnsSetsTheWidthWhenTheTerminalDoesNotSayIt() throws {
        try addLongAlbums()

        let result = try PseudoTerminal.run(store.cli, ["list"], columns: 0, environment: ["COLUMNS": "45"])

        expectLines(of: result.stdout, fit: 45)
        #expect(result.stdout.contains("…"))
    }

    @Test func theTerminalsOwnWidthComesBeforeColumns() throws {
        try addLongAlbums()

        let result = try PseudoTerminal.run(store.cli, ["list"], columns: 50, environment: ["COLUMNS": "200"])

        expectLines(of: result.stdout, fit: 50)
    }

    @Test func aTerminalOfUnknownWidthWithoutColumnsIsEightyWide() throws {
        try addLongAlbums()

        let result = try PseudoTerminal.run(store.cli, ["list"], columns: 0, environment: ["COLUMNS": ""])

        expectLines(of: result.stdout, fit: 80)
        #expect(result.stdout.split(separator: "\n").contains { DisplayWidth.of(String($0)) >= 75 })
    }

    @Test func noColumnIsCutBelowItsHeading() throws {
        try addLongAlbums()

        let result = try PseudoTerminal.run(store.cli, ["list"], columns: 20)

        // The headings need 33 columns with their gaps: the lines are that wide, and wrap.
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "#  Artist  Album  Genre  Year  ID")
        #expect(lines.last?.hasPrefix("1  Bjo\u{308}rk…  坂本…  Elec…  2001  2") == true)
    }

    @Test func showCutsLongValuesAndWideShowsThemWhole() throws {
        let album = try addLongAlbums()

        let cut = try PseudoTerminal.run(store.cli, ["show", String(album.id)], columns: 40)
        let wide = try PseudoTerminal.run(store.cli, ["show", String(album.id), "--wide"], columns: 40)

        expectLines(of: cut.stdout, fit: 40)
        // 40 columns leave 27 for the value: three 8-column names and two spaces, then the ellipsis.
        #expect(cut.stdout.contains("Title        坂本龍一 坂本龍一 坂本龍一…\n"))
        #expect(wide.stdout.contains("Title        \(Self.longTitle)\n"))
    }

    @Test func historyCutsLongCommandsToTheTerminalsWidth() throws {
        try addLongAlbums()

        let cut = try PseudoTerminal.run(store.cli, ["history"], columns: 70)
        let wide = try PseudoTerminal.run(store.cli, ["history", "--wide"], columns: 70)

        expectLines(of: cut.stdout, fit: 70)
        #expect(cut.stdout.contains("…"))
        #expect(wide.stdout.contains("add “\(Self.longTitle)” by \(Self.longArtist)"))
    }

    @Test func messagesOnStderrAreEscapedOnATerminalToo() throws {
        let album = try store.add("Evil\u{1B}]0;pwned\u{7}", by: "X")

        let result = try PseudoTerminal.run(store.cli, ["rm", String(album.id)], columns: 60)

        #expect(result.stderr == #"Deleted “Evil\e]0;pwned\a” by X. `albumstore undo` brings it back."# + "\n")
    }

    @Test func anOutputThatIsNotATerminalIsNotCutWhateverColumnsSays() throws {
        try addLongAlbums()

        let result = try store.cli.run(["list"], environment: ["COLUMNS": "40"])

        #expect(result.stdout.contains(Self.longTitle))
        #expect(!result.stdout.contains("…"))
    }
}
