import Foundation
import Testing

/// `scripts/demo`, as a new user runs it: it must never touch the library they chose.
struct DemoTests {
    let cli: CLI

    init() throws { cli = try CLI() }

    @Test(.tags(.slow), .disabledInQuickSuite)
    func theDemoLeavesTheLibraryNamedByAlbumstoreDBByteForByte() throws {
        let mine = cli.path("my-library.sqlite")
        try cli.run("init", "--db", mine)
        try cli.run("add", "--db", mine, "--title", "Mine", "--artist", "Me")
        let before = try Data(contentsOf: URL(fileURLWithPath: mine))

        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let process = Process()
        process.executableURL = root.appendingPathComponent("scripts/demo")
        var environment = cli.environment
        environment["ALBUMSTORE_DB"] = mine
        environment["ALBUMSTORE_BIN"] = cli.binary.path
        environment["TMPDIR"] = cli.directory.path
        process.environment = environment
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let out = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationStatus == 0, "\(err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: mine)) == before)
        #expect(out.contains("Staring at the Sea"))
        #expect(!out.contains("albumstore-demo") || out.contains("schema version"))
        // It says where its own library is, and prints each command ready to paste.
        #expect(err.contains("Demo library: \(cli.directory.path)/albumstore-demo."))
        #expect(err.contains("$ albumstore import scripts/examples/classics.json"))
        #expect(err.contains("3000 inserted") && err.contains("3000 skipped as duplicates"))
        // It ends with a snapshot, a change, and a restore.
        #expect(err.contains("$ albumstore state snapshot before"))
        #expect(err.contains("Restored “before”: current album, tab order. `albumstore undo` puts them back."))
        // "Low" is album 3006: the 3,000 imported albums the demo undid keep their ids.
        #expect(out.contains("""
            Item           Value
            current album  {"album_id":3006,"index":1}
            tab order      ["albums","covers","details"]

            """))
        // Then a music folder: its dry run, its import, and a rescan that reads nothing.
        #expect(out.contains("2 discs in subfolders CD1, CD2"))
        #expect(err.contains("albums added, 12 covers set"))
        #expect(err.contains("(0 read), 0 albums added, 31 unchanged"))
    }
}

/// Shell completion comes from the same help as `--help`, for the shells docs/cli.md names.
struct CompletionTests {
    let cli: CLI

    init() throws { cli = try CLI() }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsNameEverySubcommand(shell: String) throws {
        let result = try cli.run("--generate-completion-script", shell)
        #expect(result.status == 0)
        for command in ["init", "add", "edit", "rm", "mv", "list", "show", "undo", "redo", "history", "watch"] {
            #expect(result.stdout.contains(command), "\(shell) completion lacks \(command)")
        }
    }
}
