import AlbumStore
import Foundation
import Testing

/// Each failure is one plain sentence naming the file; SQLite's code, message and statement
/// appear only with --verbose.
struct ErrorMessageTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test func aWriterBlockedByAnotherProcessSaysSoAndGivesUpAfterTheBusyTimeout() throws {
        try store.add("Low")
        let lock = try SQLiteShell.WriteLock(on: store.db)
        defer { lock.release() }

        let start = ContinuousClock.now
        let result = try store.cli.run(["add", "--title", "Heroes", "--artist", "David Bowie"],
                                       environment: ["ALBUMSTORE_BUSY_TIMEOUT_MS": "200"])
        let waited = ContinuousClock.now - start

        expectRefused(result, saying: "another process is writing to \(store.db); gave up after 200 ms")
        #expect(waited >= .milliseconds(200) && waited < .seconds(4))
    }

    @Test func aLibraryFromANewerVersionAsksForAnUpgradeOfTheCommand() throws {
        try store.add("Low")
        try SQLiteShell.run("INSERT INTO schema_migrations (version, name, checksum) VALUES (999, 'future', 'x')", on: store.db)
        let result = try store.run("list")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("albumstore: \(store.db): schema version 999 is newer than this albumstore knows ("))
        #expect(result.stderr.hasSuffix("); upgrade albumstore\n"))
    }

    @Test(arguments: [["--verbose", "add"], ["add", "--verbose"]])
    func verboseAddsWhatSQLiteSaidOnASecondLine(placement: [String]) throws {
        try store.add("Low")
        let lock = try SQLiteShell.WriteLock(on: store.db)
        defer { lock.release() }

        let result = try store.cli.run(placement + ["--title", "Heroes", "--artist", "David Bowie"],
                                       environment: ["ALBUMSTORE_BUSY_TIMEOUT_MS": "100"])

        #expect(result.status == 1)
        #expect(result.stderr == """
            albumstore: another process is writing to \(store.db); gave up after 100 ms
            albumstore: SQLite error 5 (database is locked): database is locked in `BEGIN IMMEDIATE`

            """)
    }

    @Test func aDamagedFileSaysToRestoreABackupAndVerboseSaysWhere() throws {
        try store.add("Low")
        // Overwrite page 1 after the file header, where the schema's b-tree starts: nothing can
        // be read. (Its end alone no longer does: the schema outgrew page 1.)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: store.db))
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 4096 - 100))
        try handle.close()

        let plain = try store.run("list")
        let verbose = try store.run("list", "--verbose")

        expectRefused(plain, saying: "\(store.db) is damaged: database disk image is malformed; restore a backup")
        #expect(!plain.stderr.contains("SQLite error"))
        let lines = verbose.stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines[0] == plain.stderr.dropLast())
        #expect(lines.last?.hasPrefix("albumstore: SQLite error 11 (database disk image is malformed)") == true)
    }

    @Test func aBusyTimeoutThatIsNotANumberIsAUsageError() throws {
        let result = try store.cli.run(["list"], environment: ["ALBUMSTORE_BUSY_TIMEOUT_MS": "soon"])

        expectUsageError(result, saying: "ALBUMSTORE_BUSY_TIMEOUT_MS must be a whole number of milliseconds, e.g. 2000 (it is soon).")
    }

    @Test func undoAtTheHistoryBoundSaysHowManyCommandsItKeeps() throws {
        do {
            let library = try Library.open(at: URL(fileURLWithPath: store.db))
            for number in 0...100 { try library.albums.append(AlbumDraft(title: "Album \(number)", artist: "A")) }
            for _ in 0..<100 { try library.undo() }
        }

        let result = try store.run("undo")

        expectRefused(result, saying: "nothing older to undo: the history keeps the last 100 commands")
        #expect(try store.titles() == ["Album 0"])
    }

    @Test func anOlderLibraryReadOnlySaysAWritingCommandUpgradesIt() throws {
        try store.add("Low")
        // Make it look one schema version older: the last migration's record gone.
        try SQLiteShell.run("DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)", on: store.db)
        let result = try store.run("list")

        // The version before the last: versions need not be consecutive (branches number theirs apart).
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("albumstore: \(store.db) is at schema version "))
        #expect(result.stderr.hasSuffix(", older than this albumstore's "
            + "\(Library.currentSchemaVersion): a writing command (`albumstore init`, say) upgrades it\n"))
        #expect(!result.stderr.contains("version \(Library.currentSchemaVersion),"))
    }
}
