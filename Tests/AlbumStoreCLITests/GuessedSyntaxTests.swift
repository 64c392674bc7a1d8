import Foundation
import Testing

/// What a newcomer guesses from other tools gets an answer naming this tool's way: a query term
/// in another syntax, `list --sort`, `undo --all`.
struct GuessedSyntaxTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    /// The query runs as written (free text), and stderr says how to write the condition meant.
    @Test(arguments: [
        ("artist=miles", "artist:miles (artist:=miles for exactly miles)"),
        ("artist=Miles Davis", "'artist:Miles Davis' ('artist:=Miles Davis' for exactly Miles Davis)"),
        ("year>1970", "year:1971.."),
        ("year>=1970", "year:1970.."),
        ("year<1980", "year:..1979"),
        ("year<=1980", "year:..1980"),
        ("year=1959", "year:1959"),
        ("genre!=jazz", "^genre:jazz"),
    ])
    func aTermInAnotherSyntaxRunsAndSaysHowToWriteIt(term: String, meant: String) throws {
        try store.add("Kind of Blue", by: "Miles Davis", "--year", "1959", "--genre", "Jazz")

        let result = try store.run("query", term, "--format", "json")

        #expect(result.status == 0)
        #expect(result.stdout == "[]\n")
        #expect(result.stderr == "albumstore: hint: \"\(term)\" is searched for as free text; for the field, write \(meant)\n")
    }

    @Test func theSuggestedTermsFindTheAlbum() throws {
        try store.add("Kind of Blue", by: "Miles Davis", "--year", "1959", "--genre", "Jazz")

        for term in ["artist:miles", "year:..1979", "year:1959"] {
            let result = try store.run("query", term, "--format", "json")
            #expect(try decodeJSON([PrintedAlbum].self, from: result.stdout).map(\.title) == ["Kind of Blue"], "\(term)")
            #expect(result.stderr.isEmpty, "\(term)")
        }
    }

    @Test func theHintComesWithEveryCommandThatTakesAQuery() throws {
        try store.add("Kind of Blue", by: "Miles Davis")

        for command in [["stats"], ["export"], ["covers", "fetch"]] {
            let result = try store.run(command + ["artist=miles"])
            #expect(result.stderr.hasPrefix("albumstore: hint: \"artist=miles\" is searched for as free text"), "\(command)")
        }
    }

    @Test func aTermNegatedWithADashIsAUsageErrorSayingToWriteACaret() throws {
        for command in [["query"], ["stats"], ["covers", "fetch"]] {
            let result = try store.run(command + ["-genre:rock", "year:2000.."])
            let name = command.joined(separator: " ")
            #expect(result.status == 2, "\(command)")
            #expect(result.stderr.hasPrefix("Error: Unknown option '-genre:rock': to leave out what a term matches, write "
                + "^genre:rock (or put the terms after --: albumstore \(name) -- -genre:rock)\n"), "\(result.stderr)")
        }
    }

    @Test func anOptionAfterTheTerminatorIsATermAndSaysSo() throws {
        try store.add("Kind of Blue", by: "Miles Davis", "--year", "1959", "--genre", "Jazz")

        let result = try store.run("query", "--format", "json", "--", "-genre:rock", "--count")

        // A term: the rows are printed, not counted.
        #expect(result.status == 0)
        #expect(try decodeJSON([PrintedAlbum].self, from: result.stdout).map(\.title) == ["Kind of Blue"])
        #expect(result.stderr == "albumstore: hint: \"--count\" is read as a query term, since it comes after --; options go before the --\n")
    }

    @Test func andAndNotAreKeywordsNotWords() throws {
        try store.add("Kind of Blue", by: "Miles Davis", "--year", "1959", "--genre", "Jazz")
        try store.add("Low", by: "David Bowie", "--year", "1977", "--genre", "Rock")

        for (terms, expected) in [(["genre:jazz", "AND", "year:1959"], ["Kind of Blue"]), (["NOT", "genre:jazz"], ["Low"])] {
            let result = try store.run(["query", "--format", "json"] + terms)
            #expect(try decodeJSON([PrintedAlbum].self, from: result.stdout).map(\.title) == expected, "\(terms)")
        }
    }

    @Test func wordsWithAnEqualsSignThatNameNoFieldGetNoHint() throws {
        try store.add("E=MC²", by: "Big Audio Dynamite")

        let result = try store.run("query", "E=MC²", "--format", "json")

        #expect(result.stderr.isEmpty)
        #expect(result.status == 0)
    }

    @Test func listSortPointsAtQuerySort() throws {
        try store.add("Low")

        let result = try store.run("list", "--sort", "year")

        expectUsageError(result, saying: "list has no --sort: it shows the library's own order. `albumstore query --sort year` "
            + "sorts every album (query takes --offset, --limit and --format too).")
        #expect(!result.stderr.contains("--format'?"))
    }

    @Test func undoAllSaysThatUndoTakesOneStep() throws {
        try store.add(titles: ["A", "B"])

        let result = try store.run("undo", "--all")

        expectUsageError(result, saying: "undo has no --all: each undo takes back one command, the last one not yet undone. "
            + "Run it once per command; `albumstore history` lists them.")
        #expect(!result.stderr.contains("Did you mean"))
        #expect(try store.titles() == ["A", "B"])
    }
}
