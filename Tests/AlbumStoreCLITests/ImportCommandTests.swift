import AlbumStore
import Foundation
import Testing

/// `albumstore import` on the built binary: files and stdin, summaries, refusals, exit codes.
struct ImportCommandTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    private func write(_ text: String, to name: String) throws -> String {
        let path = store.cli.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func titles() throws -> [String] {
        try decodeJSON([PrintedAlbum].self, from: try store.run("list", "--format", "json").stdout).map(\.title)
    }

    @Test func importsAFileSayingWhatItDidInOneLineOnStderr() throws {
        let file = try write("Album,Band,Year,Label\nLow,David Bowie,1977,RCA\nlow,DAVID BOWIE,,RCA\nHeroes,David Bowie,1977,RCA\n", to: "a.csv")
        let result = try store.run("import", file)
        #expect(result.status == 0 && result.stdout == "")
        #expect(result.stderr == "Imported \(file) (csv, utf-8): 2 inserted, 1 skipped as duplicates (1 repeated within the file); ignored columns: Label.\n")
        #expect(try titles() == ["Low", "Heroes"])
        // A second import adds nothing.
        let again = try store.run("import", file)
        #expect(again.stderr.contains(": 0 inserted, 3 skipped as duplicates (1 repeated within the file); ignored"))
        #expect(try titles() == ["Low", "Heroes"])
    }

    @Test func kindsNotImportedAreCountedWithNounsThatAgree() throws {
        func track(_ id: Int, _ album: String, _ flag: String?) -> String {
            "<key>\(id)</key><dict><key>Track ID</key><integer>\(id)</integer><key>Artist</key><string>A</string>"
                + "<key>Album</key><string>\(album)</string>" + (flag.map { "<key>\($0)</key><true/>" } ?? "") + "</dict>"
        }
        let tracks = [track(1, "Songs", nil), track(2, "Clips", "Has Video"), track(3, "Talk", "Podcast"), track(4, "Talk 2", "Podcast")]
        let file = try write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>Tracks</key><dict>\(tracks.joined())</dict></dict></plist>
            """, to: "Library.xml")

        let result = try store.run("import", file)

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("3 skipped as not music (2 podcasts, 1 video)"), "\(result.stderr)")
    }

    @Test func jsonWhoseKeysMapToNothingNamesTheKeysAndTheMapThatNamesThem() throws {
        try store.add("Homogenic", by: "Björk")
        let before = try store.snapshot()
        for (name, text) in [("k.json", #"[{"Titel":"Foo","Kuenstler":"Bar"}]"#), ("k.ndjson", #"{"Titel":"Foo","Kuenstler":"Bar"}"# + "\n")] {
            let file = try write(text, to: name)
            for options in [[], ["--skip-invalid"]] {
                let result = try store.run(["import", file] + options)
                #expect(result.status == 1, "\(name) \(options)")
                #expect(result.stderr == "albumstore: \(file): no columns map to title and artist; columns found: Titel, Kuenstler; "
                    + "import refused, nothing changed (`--map Titel=title --map Kuenstler=artist` names them)\n", "\(name) \(options)")
            }
        }
        #expect(try store.snapshot() == before)
    }

    @Test func aFileThatIsNoCatalogIsNamedForWhatItIs() throws {
        try store.add("Homogenic", by: "Björk")
        let before = try store.snapshot()
        let png = store.cli.path("cover.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x30, count: 32)).write(to: URL(fileURLWithPath: png))

        let result = try store.run("import", png)

        #expect(result.status == 1)
        #expect(result.stderr == "albumstore: \(png): is a PNG image, not a catalog: CSV, TSV, JSON, NDJSON, a Discogs export or Library.xml\n")
        #expect(try store.snapshot() == before)
    }

    @Test func readsStandardInputWithTheFormatDetectedFromTheContent() throws {
        let result = try store.cli.run(["import", "-"], input: #"{"title":"Low","artist":"David Bowie"}"# + "\n" + #"{"title":"Heroes","artist":"David Bowie","year":1977}"# + "\n")
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("Imported - (ndjson, utf-8): 2 inserted"))
        #expect(try titles() == ["Low", "Heroes"])
    }

    @Test func anInvalidRowRefusesTheFileListingTheRowsAndLeavesTheLibraryByteIdentical() throws {
        try store.add("Homogenic", by: "Björk")
        let before = try Data(contentsOf: URL(fileURLWithPath: store.db))
        let file = try write("title,artist,year\nLow,David Bowie,1977\n,Nobody,\nHeroes,David Bowie,abc\n", to: "bad.csv")
        let rejects = store.cli.path("rejects.csv")
        let result = try store.run("import", file, "--rejects", rejects)
        #expect(result.status == 1 && result.stdout == "")
        #expect(result.stderr == """
            \(file):3: title: must not be empty
            \(file):4: year: "abc" is not a year
            albumstore: \(file): import refused, nothing changed: 2 invalid rows (`--skip-invalid` imports the others)

            """)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.db)) == before)
        #expect(try String(contentsOfFile: rejects, encoding: .utf8).split(separator: "\n").count == 3)
    }

    @Test func aSingleInvalidRowIsSaidInOneLineWithTheRefusal() throws {
        let file = try write("title,artist,year\nLow,David Bowie,1977\nHeroes,David Bowie,abc\n", to: "bad.csv")
        let result = try store.run("import", file)
        expectRefused(result, saying: """
            \(file):3: year: "abc" is not a year; import refused, nothing changed (`--skip-invalid` imports the others)
            """)
        #expect(try titles() == [])
    }

    @Test func thousandsOfIgnoredColumnsAreSummarizedInOneShortLine() throws {
        // A 1M-column file printed one 8.9 MB line; 20,000 columns show the cap as well, quicker.
        let count = 20_000
        let header = (0..<count).map { "c\($0)" }.joined(separator: ",")
        let file = try write("title,artist," + header + "\nLow,David Bowie\(String(repeating: ",", count: count))\n", to: "wide.csv")
        let result = try store.run("import", file)
        #expect(result.status == 0)
        #expect(result.stderr.hasSuffix("; ignored columns: c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 and 19990 more.\n"))
        #expect(result.stderr.count < 300)
        #expect(try titles() == ["Low"])
    }

    @Test func skipInvalidImportsTheRestAndWritesTheRejects() throws {
        let file = try write("title,artist\nLow,David Bowie\n,Nobody\n", to: "bad.csv")
        let rejects = store.cli.path("rejects.csv")
        let result = try store.run("import", file, "--skip-invalid", "--rejects", rejects)
        #expect(result.status == 0)
        #expect(result.stderr.contains("\(file):3: title: must not be empty\n"))
        #expect(result.stderr.contains(": 1 inserted, 1 rejected."))
        #expect(try titles() == ["Low"])
        #expect(try String(contentsOfFile: rejects, encoding: .utf8).contains("bad.csv,3,title,must not be empty"))
    }

    @Test func aDryRunChangesNothing() throws {
        try store.add("Homogenic", by: "Björk")
        let before = try Data(contentsOf: URL(fileURLWithPath: store.db))
        let file = try write("title,artist\nLow,David Bowie\nhomogenic,bjork\n", to: "a.csv")
        let result = try store.run("import", file, "--dry-run")
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("Dry run of \(file), nothing changed; it would give (csv, utf-8): 1 inserted, 1 skipped as duplicates."))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.db)) == before)
    }

    @Test func aDryRunOnANewLibrarySaysWhatItWouldGiveAndCreatesNothing() throws {
        let file = try write("title,artist\nLow,David Bowie\nHeroes,David Bowie\n", to: "a.csv")
        let beside = store.cli.path("new.sqlite"), inFolder = store.cli.path("folder/new.sqlite")
        for db in [beside, inFolder] {
            let result = try store.run("import", file, "--dry-run", "--db", db)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr == "Dry run of \(file), nothing changed; it would give (csv, utf-8): 2 inserted.\n")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: store.cli.directory.path)
        #expect(!names.contains { $0.hasPrefix("new.sqlite") || $0 == "folder" }, "\(names)")
    }

    @Test func onConflictUpdateAndFail() throws {
        let low = try store.add("Low", by: "David Bowie", "--genre", "Rock", "--year", "1977")
        let file = try write("title,artist,cover_url\nLow,David Bowie,https://covers.example.com/low.jpg\n", to: "a.csv")
        let failed = try store.run("import", file, "--on-conflict", "fail")
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("\(file):2: the library already has “Low” by David Bowie (album \(low.id))"))
        #expect(failed.stderr.hasSuffix("; import refused, nothing changed (`--on-conflict skip` or `update` imports the rest)\n"))
        let updated = try store.run("import", file, "--on-conflict", "update")
        #expect(updated.stderr.contains(": 0 inserted, 1 updated"))
        let album = try #require(try decodeJSON([PrintedAlbum].self, from: try store.run("list", "--format", "json").stdout).first)
        #expect(album.id == low.id && album.genre == "Rock" && album.year == 1977)
        #expect(album.coverURL == "https://covers.example.com/low.jpg")
    }

    @Test func mapAndEncodingOptions() throws {
        let path = store.cli.path("latin.csv")
        // "Björk" in Windows-1252, forced, under a column --map names.
        try Data("Disc,Who\nHomogenic,Bj\u{F6}rk\n".unicodeScalars.map { UInt8($0.value) }).write(to: URL(fileURLWithPath: path))
        let result = try store.run("import", path, "--encoding", "windows-1252", "--map", "Disc=title", "--map", "who=artist")
        #expect(result.status == 0)
        #expect(try decodeJSON([PrintedAlbum].self, from: try store.run("list", "--format", "json").stdout).first?.artist == "Björk")
        let guessed = try store.run("import", path, "--map", "Disc=title", "--map", "who=artist")
        #expect(guessed.stderr.contains("(csv, windows-1252, a guess: --encoding sets it)"))
    }

    @Test func textThatIsNotUTF8PointsAtEncoding() throws {
        let path = store.cli.path("latin.csv")
        try Data("title,artist\nHomogenic,Bj\u{F6}rk\n".unicodeScalars.map { UInt8($0.value) }).write(to: URL(fileURLWithPath: path))
        let result = try store.run("import", path, "--encoding", "utf-8")
        expectRefused(result, saying: """
            \(path):2: field 2 is not valid UTF-8; try --encoding windows-1252; import refused, nothing changed \
            (`--skip-invalid` imports the others)
            """)
    }

    @Test func usageErrorsExitTwo() throws {
        let file = try write("title,artist\nLow,Bowie\n", to: "a.csv")
        #expect(try store.run("import", file, "--map", "Disc").status == 2)
        #expect(try store.run("import", file, "--map", "Disc=nothing").status == 2)
        #expect(try store.run("import", file, "--encoding", "klingon").status == 2)
        #expect(try store.run("import", file, "--on-conflict", "merge").status == 2)
        #expect(try store.run("import", file, "--format", "xls").status == 2)
        #expect(try store.run("import").status == 2)
    }

    @Test func undoRemovesWhatTheImportAddedAndRedoBringsItBack() throws {
        try store.add("Homogenic", by: "Björk")
        let file = try write("title,artist\nLow,David Bowie\nHeroes,David Bowie\n", to: "a.csv")
        #expect(try store.run("import", file).status == 0)
        let undo = try store.run("undo")
        #expect(undo.stderr.contains("Undid: import a.csv: 2 added"))
        #expect(try titles() == ["Homogenic"])
        #expect(try store.run("redo").status == 0)
        #expect(try titles() == ["Homogenic", "Low", "Heroes"])
    }

    @Test(.enabled(if: PseudoTerminal.isAvailable, "needs python3 for a pseudo-terminal"))
    func progressIsDrawnOnlyWhenStderrIsATerminalAndErasedBeforeTheSummary() throws {
        let rows = (0..<20_000).map { "Title \($0),Artist\n" }.joined()
        let file = try write("title,artist\n" + rows, to: "big.csv")
        // Not a terminal (a pipe): the summary alone.
        let piped = try store.run("import", file, "--dry-run", "--db", store.cli.path("piped.sqlite"))
        #expect(piped.stderr.split(separator: "\n").count == 1 && !piped.stderr.contains("rows/s"))
        // stderr on a pseudo-terminal, stdout a pipe.
        let script = """
            import os, pty, subprocess, sys
            primary, secondary = pty.openpty()
            child = subprocess.Popen(sys.argv[1:], stdin=secondary, stdout=subprocess.PIPE, stderr=secondary)
            os.close(secondary)
            output = b""
            while True:
                try:
                    chunk = os.read(primary, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                output += chunk
            sys.stdout.buffer.write(output)
            sys.exit(child.wait())
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, store.cli.binary.path, "import", file]
        process.environment = store.cli.environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let terminal = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(terminal.contains(" rows, ") && terminal.contains(" rows/s, ") && terminal.contains("%"))
        #expect(terminal.contains("\r\u{1B}[KImported \(file) (csv, utf-8): 20000 inserted"))
    }

    @Test func aMissingFileIsOneLineAndExitOne() throws {
        let result = try store.run("import", store.cli.path("missing.csv"))
        #expect(result.status == 1)
        #expect(result.stderr == "albumstore: \(store.cli.path("missing.csv")): cannot be opened: No such file or directory\n")
    }
}
