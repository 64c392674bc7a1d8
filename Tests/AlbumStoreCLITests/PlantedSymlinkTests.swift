import Foundation
import Testing

/// Files the CLI writes are never written through a symbolic link someone planted where they go:
/// `covers export` replaces the link with the file (and never leaves its folder, whatever the
/// titles hold); an output path named with `-o` or `--rejects` that is a link is refused.
struct PlantedSymlinkTests {
    let store: AlbumStoreFixture
    let files = FileManager.default

    init() throws { store = try AlbumStoreFixture() }

    /// A file outside the export folder that a planted link points at.
    private func victim(_ name: String = "victim.txt") throws -> String {
        let path = store.cli.path(name)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func albumWithCover(_ title: String, by artist: String = "X") throws -> PrintedAlbum {
        let album = try store.add(title, by: artist)
        let result = try store.cli.run(["covers", "set", String(album.id), "-"], input: CoversCommandTests.gif)
        try #require(result.status == 0, "\(result.stderr)")
        return album
    }

    /// Every path under `folder`, with what it is: the whole tree, links not followed.
    private func tree(_ folder: String) throws -> [String] {
        let enumerator = try #require(files.enumerator(atPath: folder))
        var entries: [String] = []
        while let path = enumerator.nextObject() as? String {
            let type = try files.attributesOfItem(atPath: folder + "/" + path)[.type] as? FileAttributeType
            entries.append("\(path) \(type?.rawValue ?? "?")")
        }
        return entries.sorted()
    }

    @Test func exportReplacesPlantedLinksAndWritesNothingWhereTheyPoint() throws {
        let fileLink = try albumWithCover("File Link")
        let folderLink = try albumWithCover("Folder Link")
        let loop = try albumWithCover("Loop")
        let dangling = try albumWithCover("Dangling")
        let out = store.cli.path("out"), elsewhere = store.cli.path("elsewhere")
        try files.createDirectory(atPath: out, withIntermediateDirectories: true)
        try files.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let victim = try victim()
        func name(_ album: PrintedAlbum) -> String {
            "\(album.id)-x-\(album.title.lowercased().replacingOccurrences(of: " ", with: "-")).gif"
        }
        try files.createSymbolicLink(atPath: out + "/" + name(fileLink), withDestinationPath: victim)
        try files.createSymbolicLink(atPath: out + "/" + name(folderLink), withDestinationPath: elsewhere)
        try files.createSymbolicLink(atPath: out + "/" + name(loop), withDestinationPath: name(loop))
        try files.createSymbolicLink(atPath: out + "/" + name(dangling), withDestinationPath: elsewhere + "/created.gif")

        let result = try store.run("covers", "export", "--dir", out)

        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(try files.contentsOfDirectory(atPath: elsewhere) == [])
        for album in [fileLink, folderLink, loop, dangling] {
            #expect(try String(contentsOfFile: out + "/" + name(album), encoding: .utf8) == CoversCommandTests.gif)
        }
        #expect(try tree(out) == [fileLink, folderLink, loop, dangling].map { "\(name($0)) NSFileTypeRegular" }.sorted())
    }

    @Test func exportStaysInItsFolderWhateverTheTitlesHold() throws {
        let titles = ["../../escape", "/etc/passwd", "..", "a/../../b", "long", "nul"]
        var albums: [PrintedAlbum] = []
        for title in titles { albums.append(try albumWithCover(title, by: "../..")) }
        // As another program could store them: 10,000 characters (past `add`'s limit), a NUL.
        try SQLiteShell.run("""
            UPDATE albums SET title = replace(hex(zeroblob(2000)), '00', 'long /') WHERE id = \(albums[4].id);
            UPDATE albums SET title = 'x' || char(0) || '/../../y' WHERE id = \(albums[5].id);
            """, on: store.db)
        let before = try tree(store.cli.directory.path)

        let result = try store.run("covers", "export", "--dir", store.cli.path("out"))

        #expect(result.status == 0, "\(result.stderr)")
        let after = try tree(store.cli.directory.path).filter { !$0.hasPrefix("out") && !$0.hasPrefix("library.sqlite") }
        #expect(after == before.filter { !$0.hasPrefix("library.sqlite") })
        let names = try files.contentsOfDirectory(atPath: store.cli.path("out"))
        #expect(names.count == titles.count)
        for name in names {
            #expect(!name.contains("/") && !name.hasPrefix(".") && name.utf8.count < 100, "\(name)")
        }
    }

    @Test func getRefusesAnOutputPathThatIsALink() throws {
        let album = try albumWithCover("Low")
        let victim = try victim()
        let link = store.cli.path("cover.gif")
        try files.createSymbolicLink(atPath: link, withDestinationPath: victim)

        let result = try store.run("covers", "get", String(album.id), "-o", link)

        expectRefused(result, saying: "\(link): a symbolic link; refusing to write through it (name the file it points to, or another path)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(try store.run("covers", "get", String(album.id), "-o", victim).status == 0)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == CoversCommandTests.gif)
    }

    @Test func importRefusesARejectsPathThatIsALinkAndImportsNothing() throws {
        let victim = try victim()
        let link = store.cli.path("rejects.csv")
        try files.createSymbolicLink(atPath: link, withDestinationPath: victim)
        let catalog = store.cli.path("albums.csv")
        try Data("title,artist,year\nLow,David Bowie,1977\nBad,X,notayear\n".utf8).write(to: URL(fileURLWithPath: catalog))

        try store.add("Existing")

        let result = try store.run("import", catalog, "--skip-invalid", "--rejects", link)

        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("\(link)"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(": a symbolic link; refusing to write through it (name the file it points to, or another path)\n"), "\(result.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(try store.titles() == ["Existing"])
    }
}
