import Foundation
import Testing
@testable import AlbumStoreCLI

/// Shell completion offers snapshot names and album ids from the library the line names, run as
/// the generated scripts run it: `albumstore ---completion COMMAND... -- ARGUMENT WORD CURSOR WORDS...`.
struct LibraryCompletionTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    /// What the completion script asks for the word `words.last` of `words`, the cursor at its end.
    private func completions(_ command: [String], _ argument: String, _ words: [String],
                             environment: [String: String] = [:]) throws -> CLI.Result {
        try store.cli.run(["---completion"] + command + ["--", argument, String(words.count - 1), String(words.last?.count ?? 0)]
            + words, environment: environment)
    }

    @Test func theScriptsAskTheBinaryForSnapshotNamesAndIDs() throws {
        let script = try store.run("--generate-completion-script", "bash").stdout
        #expect(script.contains("---completion state restore -- positional@0"))
        #expect(script.contains("---completion show -- positional@0"))
    }

    @Test func snapshotNamesAfterStateRestoreAndTheOtherSnapshotCommands() throws {
        try store.add("Low")
        for name in ["before-party", "before-work", "after-party"] { try store.run("state", "snapshot", name) }

        for command in [["state", "restore"], ["state", "show"], ["state", "rm"], ["state", "export"], ["state", "diff"]] {
            let result = try completions(command, "positional@0", ["albumstore"] + command + ["bef"])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stdout == "before-party\nbefore-work\n", "\(command)")
        }
        let after = try completions(["state", "diff"], "positional@1", ["albumstore", "state", "diff", "before-party", ""])
        #expect(after.stdout == "before-party\nbefore-work\nafter-party\n")
    }

    @Test func albumIDsWhereAnArgumentTakesOne() throws {
        for number in 1...12 { try store.add("Album \(number)") }

        let ones = try completions(["show"], "positional@0", ["albumstore", "show", "1"])
        #expect(ones.stdout == "1\n10\n11\n12\n")
        for command in [["edit"], ["rm"], ["mv"], ["covers", "get"], ["covers", "set"], ["covers", "rm"]] {
            let result = try completions(command, "positional@0", ["albumstore"] + command + ["1"])
            #expect(result.stdout == "1\n10\n11\n12\n", "\(command)")
        }
        let option = try completions(["state", "current"], "--album", ["albumstore", "state", "current", "--album", "2"])
        #expect(option.stdout == "2\n")
    }

    @Test func theLibraryNamedByDBIsRead() throws {
        let other = store.cli.path("other.sqlite")
        try store.run("--db", other, "add", "--title", "X", "--artist", "Y")
        try store.run("--db", other, "state", "snapshot", "elsewhere")
        try store.run("init")

        let named = try completions(["state", "restore"], "positional@0", ["albumstore", "--db", other, "state", "restore", ""])
        let joined = try completions(["state", "restore"], "positional@0", ["albumstore", "state", "restore", "--db=\(other)", ""])
        let byDefault = try completions(["state", "restore"], "positional@0", ["albumstore", "state", "restore", ""])

        #expect(named.stdout == "elsewhere\n" && joined.stdout == "elsewhere\n")
        #expect(byDefault.stdout.isEmpty)
    }

    @Test func aMissingOrDamagedLibraryOffersNothingQuietlyAndIsNotCreated() throws {
        let missing = store.cli.path("missing.sqlite")
        let damaged = store.cli.path("damaged.sqlite")
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: damaged))

        for db in [missing, damaged] {
            let result = try completions(["show"], "positional@0", ["albumstore", "--db", db, "show", ""])
            #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(db): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
        #expect(try Data(contentsOf: URL(fileURLWithPath: damaged)) == Data("not a database".utf8))
    }

    @Test func idRangesCoverEveryIDWithThePrefix() {
        let ranges = LibraryCompletion.idRanges(startingWith: "12")
        #expect(ranges.prefix(3) == [12...12, 120...129, 1200...1299])
        #expect(ranges.last?.upperBound == Int64.max || ranges.last.map { String($0.upperBound).hasPrefix("12") } == true)
        #expect(ranges.allSatisfy { String($0.lowerBound).hasPrefix("12") && String($0.upperBound).hasPrefix("12") })
    }
}
