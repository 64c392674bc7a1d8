import AlbumStore
import Foundation
import Testing

/// `albumstore state ...` on the real binary.
struct StateCommandTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    /// Every row of the session tables and the change log's end: what must not move on a refusal.
    private func sessionRows() throws -> String {
        try SQLiteShell.run("""
            SELECT * FROM session_state; SELECT * FROM session_keys; SELECT * FROM session_snapshots;
            SELECT max(seq), max(tx) FROM change_log; SELECT count(*) FROM history;
            """, on: store.db)
    }

    private func state() throws -> JSONValue {
        let result = try store.run("state", "--format", "json")
        try #require(result.status == 0, "\(result.stderr)")
        return try JSONValue(parsing: Data(result.stdout.utf8))
    }

    /// Three albums, current album "B", tabs, a key, and a snapshot "s" of that.
    private func arrange() throws {
        try store.add(titles: ["A", "B", "C"])
        try store.run("state", "current", "--index", "1")
        try store.run("state", "tabs", "covers", "details")
        try store.run("state", "set", "player", #"{"volume": 0.8}"#)
        try #require(try store.run("state", "snapshot", "s").status == 0)
    }

    @Test func stateShowsEveryItemAsTheSnapshotFileDoes() throws {
        try arrange()
        let expected = #"{"current_album":{"album_id":2,"index":1},"default_tab_order":null,"keys":{"player":{"volume":0.8}},"tab_order":["covers","details"]}"#
        #expect(try store.run("state", "--format", "json").stdout == expected + "\n")
        let table = try store.run("state").stdout
        #expect(table.contains("current album") && table.contains(#"["covers","details"]"#))
    }

    @Test func currentAlbumFollowsTheAlbumAndFallsBackWhenItIsGone() throws {
        try arrange()
        try store.run("mv", "2", "--to", "2")
        let moved = try JSONValue(parsing: Data(try store.run("state", "current", "--format", "json").stdout.utf8))
        #expect(moved == .object(["index": .integer(2), "album_id": .integer(2), "title": .string("B"), "artist": .string("Artist"),
                                  "is_saved_album": .bool(true), "saved_index": .integer(1)]))
        try store.run("rm", "2")
        let fallback = try store.run("state", "current")
        #expect(fallback.stdout.contains("#1 “C” by Artist (id 3), by the saved index 1: album 2 no longer exists"))
        let refused = try store.run("state", "current", "--index", "7")
        #expect(refused.status == 1 && refused.stderr.hasPrefix("albumstore: index 7 is out of range"))
        #expect(try store.run("state", "current", "--index", "1", "--album", "1").status == 2)
    }

    @Test func theCurrentAlbumIsNamedByIdWithAlbumOrId() throws {
        try store.add(titles: ["A", "B", "C"])
        for (option, id) in [("--id", 3), ("--album", 1)] {
            let result = try store.run("state", "current", option, "\(id)", "--format", "json")
            #expect(result.status == 0, "\(option): \(result.stderr)")
            let current = try JSONValue(parsing: Data(try store.run("state", "current", "--format", "json").stdout.utf8))
            guard case .object(let fields) = current else { Issue.record("not an object: \(current)"); continue }
            #expect(fields["album_id"] == .integer(Int64(id)), "\(option)")
        }
    }

    @Test func anUnchangedTabOrderWritesNothing() throws {
        try arrange()
        let before = try sessionRows()
        let result = try store.run("state", "tabs", "covers", "details")
        #expect(result.status == 0 && result.stderr == "The tab order is unchanged: nothing was written.\n")
        #expect(try sessionRows() == before)
        let duplicate = try store.run("state", "tabs", "a", "a")
        #expect(duplicate.status == 1 && duplicate.stderr == "albumstore: tab order: tab 1 repeats \"a\"\n")
        #expect(try sessionRows() == before)
    }

    @Test func theDefaultTabOrderApplies() throws {
        try store.run("init")
        try store.run("state", "tabs", "--default", "albums", "covers")
        #expect(try store.run("state", "tabs", "--format", "json").stdout == #"["albums","covers"]"# + "\n")
        try store.run("state", "tabs", "covers", "albums")
        #expect(try store.run("state", "tabs").stdout == "Tab\ncovers\nalbums\n")
        try store.run("state", "tabs", "--reset")
        #expect(try store.run("state", "tabs", "--format", "csv").stdout == "tab\nalbums\ncovers\n")
    }

    @Test func keysGetSetUnset() throws {
        try store.run("init")
        #expect(try store.run("state", "set", "k", #"[1, "two", null]"#).status == 0)
        #expect(try store.run("state", "get", "k").stdout == #"[1,"two",null]"# + "\n")
        let bad = try store.run("state", "set", "k", "{oops")
        #expect(bad.status == 1 && bad.stderr == "albumstore: key \"k\": the value is not JSON: expected a member name in double quotes, found 'o' at line 1, column 2\n")
        #expect(try store.run("state", "unset", "k").status == 0)
        let missing = try store.run("state", "get", "k")
        #expect(missing.status == 1 && missing.stderr.contains("no value is saved under it"))
    }

    @Test func diffRestoreAndUndo() throws {
        try arrange()
        try store.run("state", "current", "--index", "2")
        try store.run("state", "unset", "player")

        let diff = try store.run("state", "diff", "s")
        #expect(diff.stdout == """
            Item           s                         now
            current album  {"album_id":2,"index":1}  {"album_id":3,"index":2}
            key player     {"volume":0.8}

            """)
        let json = try JSONValue(parsing: Data(try store.run("state", "diff", "s", "--format", "json").stdout.utf8))
        guard case let .array(rows) = json else { Issue.record("not an array"); return }
        #expect(rows.count == 2)

        let changed = try state()
        let restore = try store.run("state", "restore", "s")
        #expect(restore.status == 0)
        #expect(restore.stderr.hasPrefix("Restored “s”: current album, key player."))
        #expect(try store.run("state", "diff", "s").stdout == "Item  s  now\n")

        #expect(try store.run("undo").stderr == "Undid: restore snapshot “s”. `albumstore redo` does it again.\n")
        #expect(try state() == changed)
    }

    @Test func aPartialRestore() throws {
        try arrange()
        try store.run("state", "current", "--index", "2")
        try store.run("state", "tabs", "x")
        let restore = try store.run("state", "restore", "s", "--only", "tabs")
        #expect(restore.stderr.hasPrefix("Restored “s”: tab order."))
        guard case let .object(members) = try state() else { Issue.record("not an object"); return }
        #expect(members["tab_order"] == .array([.string("covers"), .string("details")]))
        #expect(members["current_album"] == .object(["index": .integer(2), "album_id": .integer(3)]))
    }

    @Test func aRestoredAlbumThatIsGoneSaysSo() throws {
        try arrange()
        try store.run("rm", "2")
        let restore = try store.run("state", "restore", "s")
        #expect(restore.status == 0)
        #expect(restore.stderr.contains("The current album is #1 “C” by Artist, by the saved index 1: album 2 no longer exists."))
    }

    @Test func aSnapshotRoundTripsThroughAFileAndStdin() throws {
        try arrange()
        #expect(try store.run("state", "export", "s", "s.json").status == 0)
        let file = try String(contentsOfFile: store.cli.path("s.json"), encoding: .utf8)
        #expect(file.contains("\"format\" : \"albumstore-session-snapshot\"") && file.contains("\"format_version\" : 2"))
        // The same file but for the time of the export.
        let piped = try store.run("state", "export", "s", "-").stdout
        let withoutTime = { (text: String) in text.split(separator: "\n").filter { !$0.contains("exported_at") } }
        #expect(withoutTime(piped) == withoutTime(file) && piped != file)
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.cli.directory.path).filter { $0.hasPrefix(".s.json") }.isEmpty)

        #expect(try store.run("state", "import", "s.json", "--as", "copy").status == 0)
        #expect(try store.cli.run(["state", "import", "-", "--as", "piped"], input: file).status == 0)
        let names = try JSONValue(parsing: Data(try store.run("state", "snapshots", "--format", "json").stdout.utf8))
        guard case let .array(snapshots) = names else { Issue.record("not an array"); return }
        #expect(snapshots.count == 3)
        #expect(try store.run("state", "diff", "s", "copy").stdout == "Item  s  copy\n")
        #expect(try store.run("state", "diff", "s", "piped").stdout == "Item  s  piped\n")
    }

    @Test func badFilesAreRefusedWithTheStateUnchanged() throws {
        try arrange()
        try store.run("state", "export", "s", "s.json")
        let good = try String(contentsOfFile: store.cli.path("s.json"), encoding: .utf8)
        let before = try sessionRows()
        let cases: [(name: String, text: String, message: String)] = [
            ("truncated.json", String(good.prefix(good.count / 2)), "found the end of the text at line"),
            ("newer.json", good.replacingOccurrences(of: "\"format_version\" : 2", with: "\"format_version\" : 9"),
             "format_version: version 9 was written by a newer AlbumStore; this one reads up to 2"),
            ("types.json", good.replacingOccurrences(of: "\"covers\"", with: "true"),
             "state.tab_order[0]: expected a string, found a boolean"),
            ("text.txt", "current album: 3\n", "not JSON: expected a JSON value, found 'c' at line 1, column 1"),
            ("foreign.json", #"{"version": 2}"#, "not an AlbumStore session snapshot"),
        ]
        for bad in cases {
            try Data(bad.text.utf8).write(to: URL(fileURLWithPath: store.cli.path(bad.name)))
            let result = try store.run("state", "import", bad.name, "--as", "new")
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("albumstore: \(bad.name): ") && result.stderr.contains(bad.message), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        let huge = URL(fileURLWithPath: store.cli.path("huge.json"))
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 100_000_000)
        try handle.close()
        let result = try store.run("state", "import", "huge.json")
        #expect(result.stderr == "albumstore: huge.json: 100000000 bytes is larger than a snapshot file may be (33554432 bytes)\n")
        #expect(try sessionRows() == before)
    }

    @Test func missingSnapshotsAreOneLineErrors() throws {
        try store.run("init")
        for command in [["restore", "nope"], ["show", "nope"], ["rm", "nope"], ["diff", "nope"], ["export", "nope", "x.json"]] {
            let result = try store.run(["state"] + command)
            #expect(result.status == 1)
            #expect(result.stderr == "albumstore: no snapshot named \"nope\" (`albumstore state snapshots` lists them)\n")
        }
        #expect(!FileManager.default.fileExists(atPath: store.cli.path("x.json")))
    }

    @Test func aTakenSnapshotNameIsOneLineWithTheCommandThatRemovesIt() throws {
        try arrange()
        expectRefused(try store.run("state", "snapshot", "s"), saying: "a snapshot named \"s\" exists already (`albumstore state rm s` removes it)")
    }

    @Test func everyStateCommandHasHelpWithAnExample() throws {
        for command in ["current", "tabs", "get", "set", "unset", "snapshot", "snapshots", "show", "diff", "restore", "rm",
                        "export", "import"] {
            let help = try store.run("state", command, "--help")
            #expect(help.status == 0 && help.stdout.contains("albumstore state \(command)"), "\(command)")
        }
        #expect(try store.run("state", "--help").stdout.contains("albumstore state snapshot before-party"))
    }
}

extension StateCommandTests {
    @Test func aVersionOneFileFromStdinIsMigratedAndItsIndexClamped() throws {
        try store.add(titles: ["A", "B"])
        let file = """
            {"format": "albumstore-session-snapshot", "format_version": 1, "name": "old",
             "taken_at": "2025-01-01T00:00:00Z", "state": {"current_index": 9, "tabs": ["x"]}}
            """
        let imported = try store.cli.run(["state", "import", "-"], input: file)
        #expect(imported.status == 0 && imported.stderr == "Imported snapshot “old” (2 items).\n")
        let restore = try store.run("state", "restore", "old")
        #expect(restore.stderr.contains("The current album is #1 “B” by Artist, by the saved index 9: no album id was saved."))
        #expect(try store.run("state", "tabs").stdout == "Tab\nx\n")
    }
}

/// The state commands say what happened in one line, and say so when there is nothing.
extension StateCommandTests {
    @Test func textThatIsNotJSONIsRefusedWithHowToQuoteIt() throws {
        try store.run("init")

        let result = try store.run("state", "set", "plain", "hello")

        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("albumstore: key \"plain\": the value is not JSON"))
        #expect(result.stderr.hasSuffix(#"; to save the text, quote it as JSON: albumstore state set plain '"hello"'"# + "\n"))
        // What the hint says works.
        #expect(try store.run("state", "set", "plain", #""hello""#).status == 0)
        #expect(try store.run("state", "get", "plain").stdout == "\"hello\"\n")
    }

    @Test func brokenJSONGetsNoQuotingHint() throws {
        try store.run("init")

        let result = try store.run("state", "set", "player", #"{"volume": }"#)

        #expect(result.status == 1 && !result.stderr.contains("quote it"))
    }

    @Test func savingTheCurrentAlbumPrintsOneLine() throws {
        try store.add(titles: ["A", "B", "C", "D"])

        let result = try store.run("state", "current", "--index", "3")

        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "Saved the current album: #3 “D” by Artist.\n")
        // A program asking for JSON still gets the album.
        let json = try store.run("state", "current", "--index", "2", "--format", "json")
        #expect(json.stdout.contains(#""index":2"#))
    }

    @Test func stateWithNothingSavedSaysSo() throws {
        try store.run("init")

        let state = try store.run("state")
        let snapshots = try store.run("state", "snapshots")

        #expect(state.status == 0 && state.stdout.isEmpty)
        #expect(state.stderr == "Nothing is saved: no current album, tab order or key. `albumstore state --help` says how to save them.\n")
        #expect(snapshots.status == 0 && snapshots.stdout.isEmpty)
        #expect(snapshots.stderr == "No snapshots. `albumstore state snapshot NAME` takes one.\n")
        // The machine formats keep their shape.
        #expect(try store.run("state", "snapshots", "--format", "json").stdout == "[]\n")
    }
}
