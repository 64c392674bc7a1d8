import Foundation
import Testing

/// A negative index counts from the end, as in Python: -1 is the last album. Given either way,
/// `--at -1` or `--at=-1`, it is a value, not an option named `-1`.
struct NegativeIndexTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test func mvToMinusOneMakesTheAlbumTheLast() throws {
        let albums = try store.add(titles: ["A", "B", "C"])

        let result = try store.run("mv", String(albums[0].id), "--to", "-1")

        #expect(result.status == 0)
        #expect(result.stderr == "Moved “A” by Artist to #2.\n")
        #expect(try store.titles() == ["B", "C", "A"])
    }

    @Test(arguments: [["--at", "-1"], ["--at=-1"]])
    func addAtMinusOneAddsAtTheVeryEnd(at: [String]) throws {
        try store.add(titles: ["A", "B"])

        let result = try store.run(["add", "--title", "New", "--artist", "Artist", "--format", "json"] + at)

        #expect(result.status == 0)
        #expect(try decodeJSON([PrintedAlbum].self, from: result.stdout).first?.index == 2)
        #expect(try store.titles() == ["A", "B", "New"])
    }

    @Test func addAtMinusTwoGoesBeforeTheLast() throws {
        try store.add(titles: ["A", "B"])

        let added = try store.add("New", "--at", "-2")

        #expect(added.index == 1)
        #expect(try store.titles() == ["A", "New", "B"])
    }

    @Test(arguments: [["--at", "-1"], ["--at=-1"]])
    func rmAtMinusOneDeletesTheLast(at: [String]) throws {
        try store.add(titles: ["A", "B", "C"])

        let result = try store.run(["rm"] + at)

        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("Deleted “C” by Artist."))
        #expect(try store.titles() == ["A", "B"])
    }

    @Test func rmAtAnIndexBeforeTheStartNamesBothRanges() throws {
        try store.add(titles: ["A", "B"])
        let before = try store.snapshot()

        let result = try store.run("rm", "--at", "-3")

        expectRefused(result, saying: "index -3 is out of range: valid indexes are 0...1, or -2...-1 counting from the end")
        #expect(try store.snapshot() == before)
    }

    @Test(arguments: [(["--offset", "-1"], ["C"], 2), (["--offset=-2"], ["B", "C"], 1), (["--offset", "-10"], ["A", "B", "C"], 0),
                      (["--offset", "-2", "--limit", "1"], ["B"], 1)])
    func listOffsetMinusNListsTheLastNAlbums(options: [String], titles: [String], firstIndex: Int) throws {
        try store.add(titles: ["A", "B", "C"])

        let result = try store.run(["list", "--format", "json"] + options)

        #expect(result.status == 0)
        let printed = try decodeJSON([PrintedAlbum].self, from: result.stdout)
        #expect(printed.map(\.title) == titles)
        #expect(printed.map(\.index) == Array(firstIndex..<(firstIndex + titles.count)))
    }

    @Test func helpSaysWhatANegativeIndexMeans() throws {
        for command in ["add", "mv", "rm", "list", "watch"] {
            // One line, however the help wraps.
            let help = try store.run(command, "--help").stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(help.contains("-1"), "\(command) --help")
            #expect(help.contains("from the end") || help.contains("back from the newest"), "\(command) --help")
        }
    }
}
