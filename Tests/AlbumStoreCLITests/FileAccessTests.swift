import AlbumStore
import Foundation
import Testing

/// Reading creates nothing and works where writing cannot; what is not a library file is
/// refused in plain words before SQLite touches it.
struct FileAccessTests {
    let cli: CLI

    init() throws { cli = try CLI() }

    /// The names in the folder, sorted ("" for the test's own folder).
    private func entries(_ folder: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? cli.directory.path : cli.path(folder)).sorted()
    }

    private func permissions(of path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    private func setPermissions(_ mode: Int, of path: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    /// A library with two albums at `name`, made by a writing command and closed again.
    private func makeLibrary(_ name: String) throws -> String {
        let db = cli.path(name)
        for title in ["Low", "Heroes"] {
            try #require(try cli.run("add", "--db", db, "--title", title, "--artist", "David Bowie").status == 0)
        }
        return db
    }

    @Test(arguments: [["list"], ["show", "1"], ["info"], ["history"], ["watch", "--once"], ["check"], ["backup", "copy.sqlite"]])
    func aReadingCommandOnAMissingPathCreatesNothing(command: [String]) throws {
        let db = cli.path("tpyo/music/library.sqlite")

        let result = try cli.run(command + ["--db", db])

        expectRefused(result, saying: "no library at \(db) (create it with `albumstore init`)")
        #expect(try entries().isEmpty)
    }

    @Test func listWithoutALibraryCreatesNoDefaultFolder() throws {
        let result = try cli.run("list")

        expectRefused(result, saying: "no library at \(cli.path("data/albumstore/library.sqlite")) (create it with `albumstore init`)")
        #expect(try entries().isEmpty)
    }

    @Test(arguments: [["edit", "1", "--title", "X"], ["rm", "1"], ["mv", "1", "--to", "0"], ["undo"], ["redo"]])
    func aCommandThatChangesAlbumsNeedsALibrary(command: [String]) throws {
        let db = cli.path("tpyo/library.sqlite")

        expectRefused(try cli.run(command + ["--db", db]), saying: "no library at \(db) (create it with `albumstore init`)")
        #expect(try entries().isEmpty)
    }

    @Test func theDefaultLibrarysFoldersAreCreatedPrivate() throws {
        #expect(try cli.run("init").status == 0)

        #expect(try permissions(of: cli.path("data")) == 0o700)
        #expect(try permissions(of: cli.path("data/albumstore")) == 0o700)
    }

    @Test func devNullIsRefusedAndGetsNoJournal() throws {
        let hadJournal = FileManager.default.fileExists(atPath: "/dev/null-journal")

        let result = try cli.run("info", "--db", "/dev/null")

        expectRefused(result, saying: "/dev/null is not a regular file: it is a character device")
        if !hadJournal { #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal")) }
    }

    @Test(arguments: ["info", "add"])
    func aFIFOIsRefusedWithoutBeingOpened(command: String) throws {
        let fifo = cli.path("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)

        let result = try cli.run([command, "--db", fifo] + (command == "add" ? ["--title", "T", "--artist", "A"] : []))

        expectRefused(result, saying: "\(fifo) is not a regular file: it is a FIFO")
        #expect(try entries() == ["pipe"])
    }

    @Test(arguments: ["info", "init"])
    func aDirectoryIsRefused(command: String) throws {
        try FileManager.default.createDirectory(atPath: cli.path("music"), withIntermediateDirectories: false)

        let result = try cli.run(command, "--db", cli.path("music"))

        expectRefused(result, saying: "\(cli.path("music")) is a directory, not a library file")
        #expect(try entries("music").isEmpty)
    }

    @Test(arguments: ["info", "init"])
    func aFileWhereAFolderShouldBeIsNamed(command: String) throws {
        try Data("notes".utf8).write(to: URL(fileURLWithPath: cli.path("notes")))
        let db = cli.path("notes/music/library.sqlite")

        let result = try cli.run(command, "--db", db)

        expectRefused(result, saying: "cannot use \(db): \(cli.path("notes")) is a file, not a folder")
        #expect(try entries() == ["notes"])
    }

    @Test func anEmptyFileIsNotMadeALibraryByList() throws {
        let db = cli.path("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: db, contents: Data()))

        let result = try cli.run("list", "--db", db)

        expectRefused(result, saying: "\(db) is empty, not a library (`albumstore init` makes it one)")
        #expect(try entries() == ["empty.sqlite"])
        #expect(try FileManager.default.attributesOfItem(atPath: db)[.size] as? Int == 0)
    }

    @Test(.enabled(if: Unprivileged.isAvailable, Unprivileged.reason))
    func aLibraryInAReadOnlyFolderIsListedAndShownAndNothingIsAddedToTheFolder() throws {
        let db = try makeLibrary("shelf/library.sqlite")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        try setPermissions(0o555, of: cli.path("shelf"))
        defer { try? setPermissions(0o755, of: cli.path("shelf")) }

        let list = try cli.run(["list", "--db", db, "--format", "csv"], unprivileged: true)
        let show = try cli.run(["show", "2", "--db", db, "--format", "json"], unprivileged: true)
        let info = try cli.run(["info", "--db", db], unprivileged: true)
        let check = try cli.run(["check", "--db", db], unprivileged: true)

        #expect(list.status == 0 && list.stderr == "")
        #expect(list.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[2] } == ["Low", "Heroes"])
        #expect(show.status == 0 && show.stdout.contains(#""title":"Heroes""#))
        #expect(info.status == 0 && check.stdout == "\(db): ok\n")
        #expect(try entries("shelf") == ["library.sqlite"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == bytes)
    }

    @Test(.enabled(if: Unprivileged.isAvailable, Unprivileged.reason))
    func writingToALibraryInAReadOnlyFolderSaysItIsReadOnly() throws {
        let db = try makeLibrary("shelf/library.sqlite")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        try setPermissions(0o555, of: cli.path("shelf"))
        defer { try? setPermissions(0o755, of: cli.path("shelf")) }

        let add = try cli.run(["add", "--db", db, "--title", "Lodger", "--artist", "David Bowie"], unprivileged: true)
        let remove = try cli.run(["rm", "1", "--db", db], unprivileged: true)

        // As root the binary runs as nobody, who cannot write root's file either: the file is
        // named. Running as its owner, the folder is what cannot be written.
        let reason = Unprivileged.isRoot ? "" : " (its folder cannot be written)"
        expectRefused(add, saying: "\(db) is read-only\(reason)")
        expectRefused(remove, saying: "\(db) is read-only\(reason)")
        #expect(try entries("shelf") == ["library.sqlite"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == bytes)
    }

    @Test(.enabled(if: Unprivileged.isAvailable, Unprivileged.reason))
    func aReadOnlyFileInAWritableFolderIsReadWithoutLeavingWALFiles() throws {
        let db = try makeLibrary("desk/library.sqlite")
        try setPermissions(0o444, of: db)
        if Unprivileged.isRoot {
            // The folder is nobody's own, as a user's folder would be theirs.
            for path in [cli.path("desk"), db] {
                try FileManager.default.setAttributes([.ownerAccountID: Unprivileged.user], ofItemAtPath: path)
            }
        }

        let list = try cli.run(["list", "--db", db, "--format", "ndjson"], unprivileged: true)
        let add = try cli.run(["add", "--db", db, "--title", "Lodger", "--artist", "David Bowie"], unprivileged: true)

        #expect(list.status == 0 && list.stdout.split(separator: "\n").count == 2)
        expectRefused(add, saying: "\(db) is read-only")
        #expect(try entries("desk") == ["library.sqlite"])
    }

    @Test(.enabled(if: Unprivileged.isAvailable, Unprivileged.reason))
    func aFolderThatCannotBeSearchedIsPermissionDenied() throws {
        let db = try makeLibrary("locked/library.sqlite")
        try setPermissions(0o000, of: cli.path("locked"))
        defer { try? setPermissions(0o755, of: cli.path("locked")) }

        let result = try cli.run(["list", "--db", db], unprivileged: true)

        expectRefused(result, saying: "cannot open \(db): permission denied")
    }
}
