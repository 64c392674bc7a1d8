import AlbumStore
import Foundation
import Testing

/// `albumstore export` on the built binary, and export then import into an empty library.
struct ExportCommandTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test func exportsEveryAlbumInListOrderAsCSVByDefault() throws {
        try store.add("Low", by: "David Bowie")
        try store.add("Heroes", by: "David Bowie", "--at", "0")
        let result = try store.run("export")
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "index,id,title,artist,genre,year,cover_url,external_id,created_at,updated_at")
        #expect(lines.dropFirst().map { $0.split(separator: ",")[2] } == ["Heroes", "Low"])
    }

    @Test func outputIsWrittenAtomicallyInTheFormatOfItsExtensionWithABOMOnRequest() throws {
        try store.add("Low", by: "David Bowie")
        let path = store.cli.path("albums.ndjson")
        #expect(try store.run("export", "--output", path, "--bom").status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(Array(bytes.prefix(3)) == [0xEF, 0xBB, 0xBF])
        #expect(String(decoding: bytes.dropFirst(3), as: UTF8.self).hasPrefix(#"{"index":0,"id":1,"title":"Low""#))
        // Nothing but the file is left in the folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.cli.directory.path).filter { $0.hasPrefix(".albums") }.isEmpty)
    }

    @Test func anOutputExtensionNamingNoFormatIsRefusedUnlessFormatSaysWhatToWrite() throws {
        try store.add("Low", by: "David Bowie")
        let path = store.cli.path("albums.xlsx")
        expectUsageError(try store.run("export", "--output", path),
                         saying: "--output \(path): export writes csv, tsv, json or ndjson, not .xlsx; name the format with --format")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try store.run("export", "--output", path, "--format", "csv").status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("index,id,title,artist"))
        // No extension: CSV, as on stdout.
        let bare = store.cli.path("albums")
        #expect(try store.run("export", "--output", bare).status == 0)
        #expect(try String(contentsOfFile: bare, encoding: .utf8).hasPrefix("index,id,title,artist"))
    }

    @Test(arguments: ["csv", "tsv", "json", "ndjson"])
    func exportThenImportIntoAnEmptyLibraryGivesTheSameAlbums(format: String) throws {
        try store.add("Hello, \"World\"", by: "Quote, Comma", "--genre", "Tab\there", "--year", "1999")
        try store.add("Line\nbreak 🎸", by: "Björk", "--external-id", "007")
        try store.add(String(repeating: "long ", count: 199), by: "Patient", "--at", "0")
        let path = store.cli.path("export.\(format)")
        #expect(try store.run("export", "--output", path).status == 0)
        let target = store.cli.path("target.sqlite")
        let imported = try store.run("import", path, "--db", target)
        #expect(imported.status == 0, "\(imported.stderr)")
        // The same fields and dates in the same order; ids are each library's own.
        func albums(_ db: String) throws -> [PrintedAlbum] {
            try decodeJSON([PrintedAlbum].self, from: try store.run("list", "--format", "json", "--db", db).stdout)
                .map { var album = $0; album.id = 0; return album }
        }
        let original = try albums(store.db), copy = try albums(target)
        #expect(copy.count == 3)
        #expect(copy == original)
    }
}
