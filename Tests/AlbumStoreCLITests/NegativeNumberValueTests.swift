import Foundation
import Testing
@testable import AlbumStoreCLI

/// A negative number after a space is a value, as `--opt=-N` is, for every option and argument
/// that takes a number: then the command's own check speaks, never "Missing value" or "Missing
/// expected argument".
struct NegativeNumberValueTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test(arguments: [["--year", "-5"], ["--year=-5"]])
    func aNegativeYearIsRefusedByTheYearCheck(year: [String]) throws {
        try store.add("Existing")
        let before = try store.snapshot()

        let added = try store.run(["add", "--title", "T", "--artist", "A"] + year)
        let edited = try store.run(["edit", "1"] + year)

        expectRefused(added, saying: "year: -5 is not between 1000 and \(nextYear)")
        expectRefused(edited, saying: "year: -5 is not between 1000 and \(nextYear)")
        #expect(try store.snapshot() == before)
    }

    /// Each option that takes a number, given a negative one after a space: its own check refuses
    /// it, naming it.
    @Test(arguments: [
        (["query", "--offset", "-1"], "--offset must not be negative."),
        (["query", "--limit", "-1"], "--limit must not be negative."),
        (["covers", "fetch", "--concurrency", "-1"], "--concurrency must be at least 1."),
        (["covers", "fetch", "--attempts", "-2"], "--attempts must be at least 1."),
        (["covers", "fetch", "--timeout", "-0.5"], "--timeout must be positive."),
        (["covers", "fetch", "--max-bytes", "-1"], "--max-bytes must be at least 1."),
        (["covers", "set", "1", "cover.png", "--max-bytes", "-1"], "--max-bytes must be at least 1."),
    ])
    func aNegativeOptionValueReachesTheOptionsCheck(arguments: [String], message: String) throws {
        try store.add("Existing")

        let result = try store.run(arguments)

        expectUsageError(result, saying: message)
    }

    @Test func aNegativeAlbumIDForTheCurrentAlbumIsLookedUp() throws {
        try store.add("Existing")

        expectRefused(try store.run("state", "current", "--album", "-1"), saying: "no album with id -1 (ids are positive; "
            + "`albumstore list --offset -1 --limit 1` shows the album at index -1)")
    }

    /// `show -1` is the id -1, which no album has: ids start at 1, and the message says how to
    /// reach the album at index -1.
    @Test(arguments: [
        ["show", "-1"], ["show", "-1", "--format", "json"], ["show", "--format", "json", "-1"], ["edit", "-1", "--title", "X"],
        ["rm", "-1"], ["mv", "-1", "--to", "0"], ["mv", "-1", "--to", "-1"], ["show", "--wide", "-1"],
        ["show", "--wide", "-1", "--format", "json"],
    ])
    func aNegativeIDIsAnIDNoAlbumHas(arguments: [String]) throws {
        try store.add(titles: ["A", "B"])
        let before = try store.snapshot()

        let result = try store.run(arguments)

        expectRefused(result, saying: "no album with id -1 (ids are positive; `albumstore list --offset -1 --limit 1` shows the album at index -1)")
        #expect(try store.snapshot() == before)
    }

    @Test(arguments: [["covers", "get", "-1", "-o", "out.png"], ["covers", "rm", "-1"], ["covers", "set", "-1", "-"]])
    func aNegativeIDOfTheCoverCommandsIsReadAsAnID(arguments: [String]) throws {
        try store.add("A")

        let result = try store.cli.run(arguments, input: "not an image")

        #expect(result.status == 1 && result.stdout.isEmpty, "\(arguments): \(result.stderr)")
        // A refusal of the command (exit 1), not a usage error about a missing argument.
        #expect(result.stderr.hasPrefix("albumstore: ") && !result.stderr.contains("Missing"), "\(arguments): \(result.stderr)")
    }

    @Test func aNegativeNumberIsAKeysJSONValue() throws {
        try store.run("init")
        #expect(try store.run("state", "set", "balance", "-5").status == 0)
        #expect(try store.run("state", "get", "balance").stdout == "-5\n")
    }

    @Test func aWordAfterAMovedNumberKeepsTheLineAsTyped() {
        #expect(NegativeNumberArguments.movedAfterTerminator(["state", "set", "-5", "text"]) == ["state", "set", "--", "-5", "text"])
        // Moving -5 after a `--` at the end would swap key and value.
        #expect(NegativeNumberArguments.movedAfterTerminator(["state", "set", "-5", "text", "--verbose"]) == nil)
        #expect(NegativeNumberArguments.movedAfterTerminator(["show", "-1", "--format=json"]) == ["show", "--format=json", "--", "-1"])
        #expect(NegativeNumberArguments.movedAfterTerminator(["show", "-1", "--format", "json"])
            == ["show", "--format", "json", "--", "-1"])
        #expect(NegativeNumberArguments.movedAfterTerminator(["mv", "-1", "--to", "-1"]) == ["mv", "--to", "-1", "--", "-1"])
        #expect(NegativeNumberArguments.movedAfterTerminator(["query", "-x", "--", "-1"]) == nil)
        #expect(NegativeNumberArguments.isNegativeNumber("-0.5") && !NegativeNumberArguments.isNegativeNumber("-1a")
            && !NegativeNumberArguments.isNegativeNumber("-") && !NegativeNumberArguments.isNegativeNumber("--1"))
    }
}
