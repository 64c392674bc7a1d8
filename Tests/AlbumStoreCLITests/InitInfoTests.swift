import AlbumStore
import Foundation
import Testing

struct InitInfoTests {
    let cli: CLI

    init() throws { cli = try CLI() }

    @Test func initCreatesTheLibraryAndPrintsPathAndSchemaVersion() throws {
        let db = cli.path("music/library.sqlite")
        let result = try cli.run("init", "--db", db)

        #expect(result.status == 0)
        #expect(result.stdout == "\(db): schema version \(Library.currentSchemaVersion)\n")
        #expect(FileManager.default.fileExists(atPath: db))
    }

    @Test func infoReportsPathVersionsCountAndSize() throws {
        let db = cli.path("library.sqlite")
        try cli.run("init", "--db", db)
        let result = try cli.run("info", "--db", db, "--format", "json")

        #expect(result.status == 0)
        let info = try JSONDecoder().decode(LibraryInfo.self, from: Data(result.stdout.utf8))
        #expect(info.path == db)
        #expect(info.schemaVersion == Library.currentSchemaVersion)
        #expect(info.sqliteVersion.hasPrefix("3."))
        #expect(info.albumCount == 0)
        #expect(info.fileSize > 0)
    }

    @Test func infoJSONHasSnakeCaseKeys() throws {
        let db = cli.path("library.sqlite")
        try cli.run("init", "--db", db)
        let result = try cli.run("info", "--db", db, "--format", "json")

        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["path", "schema_version", "sqlite_version", "album_count", "file_size", "wal_size"])
    }

    @Test func infoTakesTheFormatsEveryOtherCommandTakes() throws {
        let db = cli.path("library.sqlite")
        try cli.run("init", "--db", db)

        let csv = try cli.run("info", "--db", db, "--format", "csv")
        let tsv = try cli.run("info", "--db", db, "--format", "tsv")
        let ndjson = try cli.run("info", "--db", db, "--format", "ndjson")
        let table = try cli.run("info", "--db", db)

        let header = "path,schema_version,sqlite_version,album_count,file_size,wal_size"
        #expect(csv.stdout.hasPrefix(header + "\n\(db),\(Library.currentSchemaVersion),3."))
        #expect(tsv.stdout.hasPrefix(header.replacingOccurrences(of: ",", with: "\t") + "\n"))
        #expect(try JSONDecoder().decode(LibraryInfo.self, from: Data(ndjson.stdout.utf8)).path == db)
        #expect(ndjson.stdout.filter { $0 == "\n" }.count == 1)
        #expect(table.stdout.hasPrefix("Path            \(db)\nSchema version  \(Library.currentSchemaVersion)\n"))
    }

    @Test func theFormerJSONFlagStillWorksButIsHiddenAndDeprecated() throws {
        let db = cli.path("library.sqlite")
        try cli.run("init", "--db", db)
        let result = try cli.run("info", "--db", db, "--json")

        #expect(result.status == 0)
        #expect(try JSONDecoder().decode(LibraryInfo.self, from: Data(result.stdout.utf8)).path == db)
        #expect(result.stderr == "--json is deprecated: use --format json.\n")
        #expect(!(try cli.run("info", "--help").stdout.contains("--json")))
    }

    @Test func albumstoreDBChoosesTheLibraryWhenNoDBOptionIsGiven() throws {
        let db = cli.path("from-env.sqlite")
        let result = try cli.run("init", environment: ["ALBUMSTORE_DB": db])

        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(db + ":"))
        #expect(FileManager.default.fileExists(atPath: db))
    }

    @Test func defaultLibraryLivesUnderXDGDataHome() throws {
        let result = try cli.run("init")

        let expected = cli.path("data/albumstore/library.sqlite")
        #expect(result.stdout.hasPrefix(expected + ":"))
        #expect(FileManager.default.fileExists(atPath: expected))
    }

    @Test func defaultLibraryFallsBackToLocalShareUnderHome() throws {
        let result = try cli.run("init", environment: ["XDG_DATA_HOME": ""])

        #expect(result.stdout.hasPrefix(cli.path(".local/share/albumstore/library.sqlite") + ":"))
    }

    @Test func anEmptyDBPathIsRefusedAndTheDefaultLibraryIsNotTouched() throws {
        for arguments in [["add", "--title", "Low", "--artist", "David Bowie", "--db", ""], ["list", "--db", ""]] {
            let result = try cli.run(arguments)
            #expect(result.status != 0)
            #expect(result.stderr.contains("--db: an empty path names no library file; give the file's path."))
        }
        #expect(!FileManager.default.fileExists(atPath: cli.path("data/albumstore/library.sqlite")))
    }

    @Test func aCopiedBinaryWithNothingBesideItCreatesAndMigratesALibrary() throws {
        let lonely = cli.directory.appendingPathComponent("bin-alone")
        try FileManager.default.createDirectory(at: lonely, withIntermediateDirectories: true)
        let binary = lonely.appendingPathComponent("albumstore")
        try FileManager.default.copyItem(at: CLI.builtBinary, to: binary)
        #expect(try FileManager.default.contentsOfDirectory(atPath: lonely.path) == ["albumstore"])

        let result = try CLI(binary: binary).run("init", "--db", cli.path("copied.sqlite"))

        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("schema version \(Library.currentSchemaVersion)\n"))
    }

    @Test func versionPrintsTheRelease() throws {
        let result = try cli.run("--version")
        #expect(result.status == 0)
        #expect(result.stdout == Library.version + "\n")
    }

    @Test func aForeignFileFailsWithOneLineAndExitOneAndStaysUnchanged() throws {
        let path = cli.path("notes.txt")
        try Data("shopping list\n".utf8).write(to: URL(fileURLWithPath: path))

        let result = try cli.run("info", "--db", path)

        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("albumstore: \(path): not an AlbumStore database"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "shopping list\n")
    }

    @Test func anUnknownOptionIsAUsageErrorWithExitTwo() throws {
        let result = try cli.run("info", "--no-such-option")
        #expect(result.status == 2)
        #expect(result.stderr.contains("Unknown option '--no-such-option'"))
    }
}

/// Global options go before or after the command's name, as with git.
struct GlobalOptionTests {
    let cli: CLI

    init() throws { cli = try CLI() }

    @Test func dbAndVerboseBeforeTheCommandNameWork() throws {
        let db = cli.path("library.sqlite")
        #expect(try cli.run("--db", db, "init").status == 0)
        #expect(try cli.run("--db=\(db)", "add", "--title", "Low", "--artist", "David Bowie").status == 0)
        let listed = try cli.run("--verbose", "--db", db, "list", "--format", "csv")
        #expect(listed.status == 0)
        #expect(listed.stdout.contains(",Low,David Bowie,"))
        // Before a `--`, whose words stay arguments: `export` takes a query there.
        let exported = try cli.run("--db", db, "export", "--format", "csv", "--", "-artist:cure")
        #expect(exported.status == 0 && exported.stdout.contains(",Low,David Bowie,"), "\(exported.stderr)")
        #expect(try cli.run("--db", db, "history", "drop").status == 0)
        // A misspelt global option is still a usage error.
        #expect(try cli.run("--dbx", db, "list").status == 2)
    }

    @Test func helpNamesTheGlobalOptions() throws {
        #expect(try cli.run("--help").stdout.contains("Global options go before or after the command name"))
    }
}
