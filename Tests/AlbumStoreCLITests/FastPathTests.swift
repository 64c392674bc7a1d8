import ArgumentParser
import Foundation
import Testing
import AlbumStore
@testable import AlbumStoreCLI

/// `FastPath` reads every command line it takes as ArgumentParser does, takes the lines people
/// type, and leaves everything else (help, mistakes) to ArgumentParser.
struct FastPathTests {
    /// ArgumentParser's reading of `arguments`, as `AlbumStoreCommand.main` parses them.
    func parsedByArgumentParser(_ arguments: [String]) -> FastPath.Request? {
        let command = try? AlbumStoreCommand.parseAsRoot(GlobalOptions.reordered(arguments))
        if let query = command as? Query { return .query(query.request) }
        if let list = command as? List { return .list(list.request) }
        if let show = command as? Show { return .show(show.request) }
        return nil
    }

    func expectSameReading(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        guard let fast = FastPath.parse(arguments) else { return }
        let full = parsedByArgumentParser(arguments)
        #expect(full != nil, "ArgumentParser refuses \(arguments), which the fast path took", sourceLocation: sourceLocation)
        if let full { #expect(fast == full, "\(arguments)", sourceLocation: sourceLocation) }
    }

    @Test func theLinesPeopleTypeTakeTheFastPathAndReadAsArgumentParserReadsThem() {
        let lines: [[String]] = [
            ["query"],
            ["query", "bowie"],
            ["query", "artist:=Artist 1234", "--db", "lib.sqlite", "--format", "csv"],
            ["--db", "lib.sqlite", "query", "--format=json", "--", "-genre:rock", "year:2000.."],
            ["--verbose", "--db=lib.sqlite", "query", "genre:=Rock", "year:1990..1999", "--sort", "year", "--limit", "50"],
            ["query", "bowie", "--limit", "10", "low", "--offset", "5", "--wide", "--sort", "year:desc,title"],
            ["query", "genre:jazz", "OR", "genre:blues", "--count"],
            ["query", "beyonce", "--template", "{artist} — {title} ({year})"],
            ["query", "mid*", "--limit", "+7", "--format", "tsv", "--verbose"],
            ["query", "", "^genre:", "--", "--limit", "--count"],
            ["list"],
            ["--db", "lib.sqlite", "list", "--format=csv", "--offset", "100", "--limit", "20"],
            ["list", "--offset=-1"],
            ["--verbose", "list", "--wide", "--format", "json", "--db=lib.sqlite"],
            ["show", "42"],
            ["--db", "lib.sqlite", "show", "7", "--format=csv", "--wide", "--verbose"],
        ]
        for line in lines {
            #expect(FastPath.parse(line) != nil, "\(line) should take the fast path")
            expectSameReading(line)
        }
    }

    @Test func helpMistakesAndAnythingUnusualAreLeftToArgumentParser() {
        let lines: [[String]] = [
            [], ["query", "--help"], ["query", "-h"], ["query", "help"], ["help", "query"], ["show"], ["--db", "x", "stats"],
            ["query", "--limit", "-1"], ["query", "--limit", "ten"], ["query", "--offset", "-3"], ["query", "--limit"],
            ["query", "--format", "xml"], ["query", "--db"], ["query", "--db", "--count"], ["query", "--count", "--count"],
            ["query", "--limit", "1", "--limit", "2"], ["query", "--count=yes"], ["query", "--bogus"], ["query", "-"],
            ["query", "-genre:rock"], ["--count", "query"], ["--sort", "year", "query"], ["query", "--template", "{nope}"],
            ["query", "--generate-completion-script", "bash"], ["--version"], ["query", "--version"], ["--", "query"],
            ["list", "bowie"], ["list", "help"], ["list", "--help"], ["list", "--sort", "year"], ["list", "--count"],
            ["list", "--template", "{title}"], ["list", "--offset", "-1"], ["list", "--limit", "-1"], ["list", "--"],
            ["list", "--", "bowie"], ["list", "--wide", "--wide"], ["list", "--format", "xml"], ["listing"],
            ["show", "1", "2"], ["show", "x"], ["show", "-1"], ["show", "--", "1"], ["show", "1", "--limit", "2"],
            ["show", "help"], ["show", "--help"], ["show", "99999999999999999999"], ["show", "1", "--count"],
        ]
        for line in lines {
            #expect(FastPath.parse(line) == nil, "\(line) should be left to ArgumentParser")
        }
    }

    /// Random lines from the pieces of real ones: whatever the fast path takes, ArgumentParser
    /// reads the same way. Half of them start with a command's name (the rest may have it
    /// anywhere, twice or not at all), so that each command's lines are many.
    @Test(.tags(.slow), .disabledInQuickSuite)
    func randomLinesTheFastPathTakesReadAsArgumentParserReadsThem() {
        let commands = ["query", "list", "show"]
        let pieces = commands + [
            "12", "--db", "lib.sqlite", "--db=a b.sqlite", "--format", "csv", "json", "--format=ndjson",
            "--sort", "year", "artist:desc", "--limit", "5", "0", "--offset", "2", "--count", "--wide", "--verbose",
            "--template", "{title}", "--", "bowie", "artist:=Low", "^genre:", "-genre:rock", "OR", ",", "", "=", "x=y",
            "--limit=3", "--sort=title", "--offset=-2", "help", "-h", "--bogus", "-", "-5",
        ]
        // The same lines on every run: a linear congruential generator, its high bits.
        var state: UInt64 = 20261125
        func random(_ count: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % count
        }
        var taken = ["query": 0, "list": 0, "show": 0]
        for number in 0..<6000 {
            let start = number.isMultiple(of: 2) ? [commands[random(commands.count)]] : []
            let line = start + (0...random(6)).map { _ in pieces[random(pieces.count)] }
            switch FastPath.parse(line) {
            case .query: taken["query", default: 0] += 1
            case .list: taken["list", default: 0] += 1
            case .show: taken["show", default: 0] += 1
            case nil: break
            }
            expectSameReading(line)
        }
        for (command, lines) in taken {
            #expect(lines > 20, "the sample should exercise the fast path (\(lines) \(command) lines took it)")
        }
    }
}

/// `AbsolutePath.of` makes a --db path absolute as `URL(fileURLWithPath:).path` does.
struct AbsolutePathTests {
    @Test func relativePathsResolveAsURLResolvesThem() {
        for path in ["lib.sqlite", "./lib.sqlite", "../x/lib.sqlite", "a/./b/../c.sqlite", "a//b", "dir/", "../../../../../../x",
                     ".", "..", "/abs/./a/../b", "/", "a b/ç.sqlite"] {
            #expect(AbsolutePath.of(path) == URL(fileURLWithPath: path).path, "\(path)")
        }
    }
}
