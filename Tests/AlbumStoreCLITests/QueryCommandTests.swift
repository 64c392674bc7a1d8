import Foundation
import Testing

/// `albumstore query`, `fields`, `stats` and `export QUERY` on the built binary.
struct QueryCommandTests {
    let store: AlbumStoreFixture

    init() throws {
        store = try AlbumStoreFixture()
        try store.add("Low", by: "David Bowie", "--genre", "Rock", "--year", "1977")
        try store.add("Homogenic", by: "Björk", "--genre", "Electronic", "--year", "1997")
        try store.add("Disintegration", by: "The Cure", "--genre", "Rock", "--year", "1989")
        try store.add("Lemonade", by: "Beyoncé", "--year", "2016")
        try store.add("AC:DC Live", by: "AC/DC", "--genre", "Rock")
    }

    func titles(_ arguments: String...) throws -> [String] {
        let result = try store.run(["query", "--format", "json"] + arguments)
        try #require(result.status == 0, "\(result.stderr)")
        return try decodeJSON([PrintedAlbum].self, from: result.stdout).map(\.title)
    }

    @Test func termsFilterAndSortTheAlbums() throws {
        #expect(try titles("bjork") == ["Homogenic"])
        #expect(try titles("genre:rock") == ["Low", "Disintegration", "AC:DC Live"])
        #expect(try titles("genre:rock", "year:1980..") == ["Disintegration"])
        #expect(try titles("genre:rock", "--sort", "artist") == ["AC:DC Live", "Disintegration", "Low"])
        #expect(try titles("--sort", "year:desc", "--limit", "2") == ["Lemonade", "Homogenic"])
        #expect(try titles("genre:", "OR", "bow*") == ["Low", "Lemonade"])
        #expect(try titles("--", "-genre:rock") == ["Homogenic", "Lemonade"])
        #expect(try titles("^genre:rock") == ["Homogenic", "Lemonade"])
        #expect(try titles("title:AC\\:DC") == ["AC:DC Live"])
        #expect(try titles("'; DROP TABLE albums; --") == [])
        #expect(try store.titles().count == 5)
    }

    @Test func aQueryOfTheMostTermsRunsAndOneMoreIsAQueryError() throws {
        let terms = (0..<500).map { "^year:\(1000 + $0)" }   // none of the five albums' years
        let most = try store.run(["query", "--count", "--"] + terms)
        #expect(most.status == 0 && most.stdout == "5\n", "\(most.stdout) \(most.stderr)")
        let tooMany = try store.run(["query", "--count", "--"] + terms + ["^year:1"])
        #expect(tooMany.status == 2 && tooMany.stderr.contains("the query has 501 terms; at most 500 can run"), "\(tooMany.stderr)")
    }

    @Test func indexesNumberTheResultsAndCountCountsThem() throws {
        let result = try store.run("query", "genre:rock", "--offset", "1", "--format", "ndjson")
        let printed = try result.stdout.split(separator: "\n").map { try decodeJSON(PrintedAlbum.self, from: String($0)) }
        #expect(printed.map(\.index) == [1, 2])
        #expect(try store.run("query", "genre:rock", "--count").stdout == "3\n")
        #expect(try store.run("query", "--count").stdout == "5\n")
    }

    @Test func tableAndTemplateOutput() throws {
        let table = try store.run("query", "bowie")
        #expect(table.status == 0)
        #expect(table.stdout.split(separator: "\n").first?.hasPrefix("#  Artist") == true)
        #expect(table.stdout.contains("David Bowie  Low"))
        let lines = try store.run("query", "genre:rock", "--template", "{artist} — {title} ({year}) {{#{index}}}")
        #expect(lines.stdout == "David Bowie — Low (1977) {#0}\nThe Cure — Disintegration (1989) {#1}\nAC/DC — AC:DC Live () {#2}\n")
        let csv = try store.run("query", "lemonade", "--format", "csv")
        #expect(csv.stdout.hasPrefix("index,id,title,artist,genre,year,cover_url,external_id,created_at,updated_at\n0,4,Lemonade,Beyoncé,,2016,"))
    }

    @Test func aQueryThatDoesNotParseShowsACaretAndExitsTwo() throws {
        let before = try store.snapshot()
        let result = try store.run("query", "year:1970..1979", "artst:bowie")
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == """
            albumstore: unknown field "artst" (albumstore fields lists them)
              year:1970..1979 artst:bowie
                              ^^^^^

            """)
        let regex = try store.run("query", "Björk", "title::(")
        #expect(regex.status == 2)
        #expect(regex.stderr.hasSuffix("  Björk title::(\n               ^\n"))
        // Carets line up by display width: a CJK title takes two columns a character.
        let wide = try store.run("query", "東京", "year:x")
        #expect(wide.stderr.hasSuffix("  東京 year:x\n            ^\n"))
        let sort = try store.run("query", "--sort", "year,colour")
        #expect(sort.status == 2)
        #expect(sort.stderr == "albumstore: --sort: cannot sort by \"colour\" (albumstore fields lists the fields)\n  year,colour\n       ^^^^^^\n")
        let template = try store.run("query", "--template", "{artist} {colour}")
        #expect(template.status == 2)
        #expect(template.stderr.contains("--template: unknown field {colour}"))
        #expect(try store.snapshot() == before)
    }

    @Test(arguments: [
        ("{title", "{title is never closed with }"), ("}", "a } without its {"), ("{a{b}", "a { inside {a…}"),
        ("{}", "unknown field {}"), ("{album} {released}", ""),
    ])
    func templatesAreCheckedBeforeAnythingRuns(template: String, problem: String) throws {
        let result = try store.run("query", "low", "--template", template)
        if problem.isEmpty {
            #expect(result.status == 0 && result.stdout == "Low 1977\n")
        } else {
            #expect(result.status == 2 && result.stdout.isEmpty)
            #expect(result.stderr.contains("--template: \(problem)"), "\(result.stderr)")
        }
    }

    @Test func fieldsListsWhatQueriesSortsAndTemplatesTake() throws {
        let result = try store.run("fields", "--format", "tsv")
        #expect(result.status == 0)
        let rows = result.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(rows.first == ["Field", "Query", "Sort", "Also"])
        #expect(rows.dropFirst().map { String($0[0]) }
            == ["index", "id", "title", "artist", "genre", "year", "cover_url", "external_id", "created_at", "updated_at"])
    }

    @Test func statsCountsTheMatchingAlbums() throws {
        let result = try store.run("stats", "genre:rock", "--format", "json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"albums":3,"artists":3,"decades":[{"albums":1,"decade":1970},{"albums":1,"decade":1980}],"genres":1,"#
            + #""top_artists":[{"albums":1,"name":"AC/DC"},{"albums":1,"name":"David Bowie"},{"albums":1,"name":"The Cure"}],"#
            + #""top_genres":[{"albums":3,"name":"Rock"}],"without_year":1}"# + "\n")
        let table = try store.run("stats")
        #expect(table.stdout.hasPrefix("albums          5\nartists         5\ngenres          2\nwithout a year  1\n\nTop genres"))
    }

    @Test func exportWritesOnlyTheMatchingAlbums() throws {
        let result = try store.run("export", "genre:rock", "--sort", "year:desc", "--format", "ndjson")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.stdout.split(separator: "\n").map { try decodeJSON(PrintedAlbum.self, from: String($0)).title }
            == ["Disintegration", "Low", "AC:DC Live"])
        let bad = try store.run("export", "genre:rock", "colour:red", "--output", store.cli.path("x.csv"))
        #expect(bad.status == 2)
        #expect(!FileManager.default.fileExists(atPath: store.cli.path("x.csv")))
    }

    @Test func completionOffersTheFields() throws {
        let script = try store.run("--generate-completion-script", "bash")
        #expect(script.stdout.contains("---completion query -- positional@0"))
        #expect(script.stdout.contains("'year:desc'"))
        // What the script asks the binary for, the cursor at the end of the word being typed.
        let offered = try store.run("---completion", "query", "--", "positional@0", "2", "3", "albumstore", "query", "gen")
        #expect(offered.stdout == "genre:\n")
        let negated = try store.run("---completion", "query", "--", "positional@0", "2", "3", "albumstore", "query", "^ye")
        #expect(negated.stdout == "^year:\n")
    }
}
