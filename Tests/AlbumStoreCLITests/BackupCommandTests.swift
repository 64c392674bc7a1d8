import AlbumStore
import Foundation
import Testing

/// `albumstore backup DEST`: a consistent copy while others write, never over a file unasked.
struct BackupCommandTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test func aBackupTakenWhileAnotherProcessAddsAlbumsPassesTheCheckAndHoldsWhatCameBefore() throws {
        do {
            let library = try Library.open(at: URL(fileURLWithPath: store.db))
            try library.albums.append(contentsOf: (1...20_000).map { AlbumDraft(title: "Album \($0)", artist: "Artist") })
        }
        // Another process adding albums one command at a time, printing each as it commits.
        let writer = try BackgroundProcess(
            binary: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", #"while "$0" add --title Meanwhile --artist Writer --format ndjson; do :; done"#,
                        store.cli.binary.path],
            environment: store.cli.environment, directory: store.cli.directory)
        #expect(writer.wait { writer.stdoutLines.count >= 3 })
        let committedBefore = try writer.stdoutLines.map { try decodeJSON(PrintedAlbum.self, from: $0).id }
        let copy = store.cli.path("backups/copy.sqlite")

        let result = try store.run("backup", copy)
        #expect(writer.wait { writer.stdoutLines.count >= committedBefore.count + 3 }, "the writer went on")

        #expect(result.status == 0)
        #expect(result.stderr == "Backed up \(store.db) to \(copy).\n")
        #expect(try store.cli.run("check", "--db", copy).stdout == "\(copy): ok\n")
        let listed = try store.cli.run("list", "--db", copy, "--offset", "20000", "--format", "ndjson")
        let ids = Set(try listed.stdout.split(separator: "\n").map { try decodeJSON(PrintedAlbum.self, from: String($0)).id })
        #expect(ids.isSuperset(of: committedBefore))
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.cli.path("backups")) == ["copy.sqlite"])
    }

    @Test func anExistingFileIsReplacedOnlyWithForce() throws {
        try store.add("Low")
        let copy = store.cli.path("copy.sqlite")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: copy))

        let refused = try store.run("backup", copy)
        expectRefused(refused, saying: "\(copy) already exists (--force replaces it)")
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == "keep me")

        let forced = try store.run("backup", copy, "--force")
        #expect(forced.status == 0)
        #expect(try store.cli.run("list", "--db", copy, "--format", "csv").stdout.contains(",Low,"))
    }

    @Test func aBackupOntoTheLibraryItselfIsRefused() throws {
        try store.add("Low")

        let result = try store.run("backup", store.db, "--force")

        expectRefused(result, saying: "\(store.db): that is the library itself; back it up to another file")
        #expect(try store.titles() == ["Low"])
    }

    /// Renamed over a live library's `-wal`, a backup became the write-ahead log of every process
    /// that had it open, and broke their reads; a `-shm` or `-journal` is no better. (The library
    /// being backed up is refused by `OwnFileRefusalTests`; here it is another one.)
    @Test(arguments: ["-wal", "-shm", "-journal"])
    func aBackupOntoAFileSQLiteKeepsBesideALiveLibraryIsRefused(suffix: String) throws {
        try store.add("Low")
        let other = store.cli.path("other.sqlite")
        try #require(try store.run("--db", other, "add", "--title", "Heroes", "--artist", "X").status == 0)
        // Another process has the library open: its -wal and -shm exist.
        let holder = try SQLiteShell.WriteLock(on: store.db)
        defer { holder.release() }
        let target = store.db + suffix
        let before = try? Data(contentsOf: URL(fileURLWithPath: target))

        // With --force or without: the refusal never suggests a --force that would be refused too.
        for force in [[], ["--force"]] {
            let result = try store.run(["--db", other, "backup", target] + force)
            expectRefused(result, saying: "\(target): that is a file SQLite keeps beside \(store.db); back up to another file")
        }
        #expect((try? Data(contentsOf: URL(fileURLWithPath: target))) == before)
        holder.release()
        #expect(try store.titles() == ["Low"])
        #expect(try store.run("check").status == 0)
    }

    /// The library's own `-wal`, while it is open for the backup: refused the same way.
    @Test func aBackupOntoTheLibrarysOwnLogIsRefusedWithoutSuggestingForce() throws {
        try store.add("Low")
        let holder = try SQLiteShell.WriteLock(on: store.db)
        defer { holder.release() }
        let result = try store.run("backup", store.db + "-wal")
        #expect(result.status != 0 && !result.stderr.contains("--force"), "\(result.stderr)")
        #expect(result.stderr.contains("that is a file SQLite keeps beside"), "\(result.stderr)")
    }

    @Test func forceNeverReplacesAnotherProgramsDatabase() throws {
        try store.add("Low")
        let foreign = store.cli.path("notes.sqlite")
        try SQLiteShell.run("CREATE TABLE notes(text); INSERT INTO notes VALUES ('keep me');", on: foreign)
        let before = try Data(contentsOf: URL(fileURLWithPath: foreign))

        let result = try store.run("backup", foreign, "--force")

        expectRefused(result, saying: "\(foreign): that is another program's SQLite database, not replaced; back up to another file")
        #expect(try Data(contentsOf: URL(fileURLWithPath: foreign)) == before)
    }
}
