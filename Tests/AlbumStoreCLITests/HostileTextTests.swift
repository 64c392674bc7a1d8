import Foundation
import Testing

/// No terminal escape sequence from the data reaches a terminal, from any command that prints
/// data or an error about it: titles, artists, genres, state values, snapshot names, cover URLs,
/// file names and library paths that hold ESC, CSI, OSC, BEL, CR, LF, DEL and C1 controls are
/// shown escaped (`TerminalEscaping`), in every format meant for a person; JSON escapes them.
struct HostileTextTests {
    /// Clears the screen, renames the window, forges a line, and the same again in C1 controls
    /// (CSI U+009B, OSC U+009D, ST U+009C, NEL U+0085).
    static let hostile = "A\u{1B}[2J\u{1B}]0;pwned\u{7}\r\nforged\u{7F}\u{9B}31m\u{9D}0;x\u{9C}\u{85}Z"

    let store: AlbumStoreFixture

    init() throws {
        store = try AlbumStoreFixture()
        let hostile = Self.hostile
        try store.add(hostile, by: hostile, "--genre", hostile, "--year", "1977")
        try store.run("state", "current", "--index", "0")
        // Keys and snapshot names cannot hold control characters; values can.
        let json = String(decoding: try JSONEncoder().encode(hostile), as: UTF8.self)
        try #require(try store.run("state", "set", "key", json).status == 0)
        try store.run("state", "snapshot", "before")
        // A changed value, for `state diff`; and a cover URL as another program could store it
        // (`add` takes only well-formed URLs).
        try SQLiteShell.run("""
            UPDATE session_keys SET value = '[' || value || ']' WHERE key = 'key';
            UPDATE albums SET cover_url = 'http://127.0.0.1:1/' || char(27) || '[2J' WHERE id = 1;
            """, on: store.db)
        try Data(hostile.utf8).write(to: URL(fileURLWithPath: store.cli.path("cover\u{1B}[2J.gif")))
    }

    /// Commands that print the hostile data, or an error that names it.
    static let commands: [[String]] = [
        ["list"], ["list", "--wide"], ["show", "1"], ["query", "a"], ["query", "a", "--template", "{artist} — {title} ({genre})"],
        ["query", "--template", "{genre}"], ["history"], ["stats"], ["state"], ["state", "current"],
        ["state", "show", "before"], ["state", "diff", "before"], ["covers", "fetch", "--attempts", "1", "--timeout", "1"],
        ["covers", "set", "1", "cover\u{1B}[2J.gif"], ["import", "missing\u{1B}]0;x\u{7}.csv"],
        ["--db", "missing\u{1B}[2J\u{9B}.sqlite", "list"], ["query", "year:19\u{1B}[31m\r\n"],
        ["add", "--title", hostile, "--artist", "X", "--year", "12\u{1B}[2J"],
    ]

    @Test(arguments: commands)
    func noEscapeSequenceReachesTheTerminal(arguments: [String]) throws {
        let result = try store.run(arguments)

        expectNothingRaw(result.stdout)
        expectNothingRaw(result.stderr)
        // The data was printed (escaped as text, or as JSON in a state value), not left out.
        let printed = result.stdout + result.stderr
        #expect(printed.contains(#"\e"#) || printed.contains(#"\u001b"#), "\(printed)")
    }

    @Test func aTemplateShowsEachValueEscapedOnItsOwnLine() throws {
        let result = try store.run("query", "a", "--template", "{artist} — {title}")

        #expect(result.status == 0)
        let escaped = #"A\e[2J\e]0;pwned\a\r\nforged\u{7f}\u{9b}31m\u{9d}0;x\u{9c}\u{85}Z"#
        #expect(result.stdout == "\(escaped) — \(escaped)\n")
    }

    @Test func jsonEscapesEveryControlCharacterAndKeepsTheValueExact() throws {
        let result = try store.run("list", "--format", "json")

        expectNothingRaw(result.stdout)
        #expect(try decodeJSON([PrintedAlbum].self, from: result.stdout).first?.title == Self.hostile)
    }

    @Test func aLibraryPathIsShownEscaped() throws {
        let path = store.cli.path("lib\u{1B}]0;pwned\u{7}.sqlite")
        try #require(try store.run("--db", path, "add", "--title", "Low", "--artist", "X").status == 0)

        for arguments in [["info"], ["check"], ["init"], ["backup", store.cli.path("copy.sqlite")]] {
            let result = try store.run(["--db", path] + arguments)
            expectNothingRaw(result.stdout)
            expectNothingRaw(result.stderr)
            #expect((result.stdout + result.stderr).contains(#"lib\e]0;pwned\a.sqlite"#), "\(arguments): \(result.stdout)\(result.stderr)")
        }
    }
}
