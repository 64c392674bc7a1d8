import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `albumstore covers ...` on the real binary.
struct CoversCommandTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    /// A GIF whose bytes are all ASCII, so it can go through stdin and stdout as text.
    static let gif = "GIF89a\u{4}\0\u{4}\0\0\0\0;"
    /// A 600×600 PNG: its header, an IDAT chunk of filler bytes, and IEND.
    static func png(padding: Int) -> Data { TestImages.png(width: 600, height: 600, padding: padding, fill: 0x55) }

    private func file(_ name: String, _ data: Data) throws -> String {
        let path = store.cli.path(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func setThenGetGivesTheSameBytesAndUndoRedoWork() throws {
        let album = try store.add("Low", by: "David Bowie")
        let image = Self.png(padding: 70_000)
        let set = try store.run("covers", "set", String(album.id), try file("cover.png", image))
        #expect(set.status == 0)
        #expect(set.stderr == "Set the cover of album \(album.id): png 600×600, \(image.count) bytes. `albumstore undo` takes it back.\n")

        #expect(try store.run("covers", "get", String(album.id), "-o", store.cli.path("out.png")).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.cli.path("out.png"))) == image)

        #expect(try store.run("undo").status == 0)
        expectRefused(try store.run("covers", "get", String(album.id), "-o", store.cli.path("none.png")),
                      saying: "album \(album.id) has no cover")
        #expect(try store.run("redo").status == 0)
        #expect(try store.run("covers", "stats").stdout.contains("albums with a cover: 1\n"))
    }

    @Test func aNonImageIsRefusedInOneLineAndNothingChanges() throws {
        let album = try store.add("Low")
        let before = try store.snapshot()
        let result = try store.run("covers", "set", String(album.id), try file("notes.txt", Data("hello".utf8)))
        expectRefused(result, saying: "\(store.cli.path("notes.txt")): not a PNG, JPEG, GIF or WebP image")
        #expect(try store.snapshot() == before)
        #expect(try store.run("covers", "stats").stdout.contains("images: 0\n"))
    }

    @Test func stdinInAndStdoutOut() throws {
        let album = try store.add("Low")
        #expect(try store.cli.run(["covers", "set", String(album.id), "-"], input: Self.gif).status == 0)
        let get = try store.run("covers", "get", String(album.id))
        #expect(get.status == 0)
        #expect(get.stdout == Self.gif)
        expectRefused(try store.cli.run(["covers", "set", String(album.id), "-"], input: "hello"),
                      saying: "stdin: not a PNG, JPEG, GIF or WebP image")
    }

    @Test func removeKeepsTheImageForUndoUntilNothingCanBringItBack() throws {
        let album = try store.add("Low")
        try store.run("covers", "set", String(album.id), try file("c.png", Self.png(padding: 10)))
        #expect(try store.run("covers", "rm", String(album.id)).status == 0)
        #expect(try store.run("covers", "gc").stdout == "Removed 0 images, freed 0 bytes.\n")
        #expect(try store.run("undo").status == 0)
        #expect(try store.run("covers", "get", String(album.id), "-o", store.cli.path("back.png")).status == 0)
    }

    @Test func exportNamesStayInsideTheFolder() throws {
        let albums = [
            try store.add("../../etc/passwd", by: "AC/DC"), try store.add("CON", by: "NUL"), try store.add("Plain", by: "Artist"),
        ]
        for album in albums.prefix(2) {
            try store.run("covers", "set", String(album.id), try file("c\(album.id).gif", Data(Self.gif.utf8)))
        }
        let result = try store.run("covers", "export", "--dir", store.cli.path("out"))
        #expect(result.status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: store.cli.path("out")).sorted()
        #expect(names == ["\(albums[0].id)-ac-dc-etc-passwd.gif", "\(albums[1].id)-nul-con.gif"])
        #expect(result.stderr == "Exported 2 covers to \(store.cli.path("out")); 1 album has none.\n")
    }

    @Test(.enabled(if: HostileHTTPServer.isAvailable, "needs python3 for a loopback HTTP server"))
    func fetchStoresWhatItCanAndListsEachFailure() throws {
        let server = try HostileHTTPServer(serving: store.cli.directory.path)
        _ = try file("good.gif", Data(Self.gif.utf8))
        _ = try file("bad.txt", Data("no".utf8))
        let first = try store.add("A", by: "X", "--cover-url", server.url("/files/good.gif"))
        let second = try store.add("B", by: "X", "--cover-url", server.url("/files/bad.txt"))

        let result = try store.run("covers", "fetch")

        #expect(result.status == 1)
        #expect(result.stderr == """
            Fetched 1 cover; 1 failed; 0 albums have no cover URL.
              album \(second.id): \(server.url("/files/bad.txt")): not a PNG, JPEG, GIF or WebP image

            """)
        #expect(try store.run("covers", "get", String(first.id)).stdout == Self.gif)
        // Fetched once: a second run has nothing to do for the first album.
        #expect(try store.run("covers", "fetch").stderr.hasPrefix("Fetched 0 covers; 1 failed"))
    }

    /// A fetched cover goes from its source to the library in chunks (a download through a spool
    /// file): fetching a 15 MB cover needs no more memory than fetching a tiny one.
    @Test(.enabled(if: HostileHTTPServer.isAvailable, "needs python3 for a loopback HTTP server"))
    func fetchingALargeCoverKeepsMemoryBounded() throws {
        let server = try HostileHTTPServer(serving: store.cli.directory.path)
        _ = try file("small.png", Self.png(padding: 100))
        _ = try file("large.png", Self.png(padding: 15 * 1024 * 1024))
        try store.add("Small", by: "X", "--cover-url", server.url("/files/small.png"))
        let smallRun = try store.cli.runMeasuringPeakMemory(["covers", "fetch"])
        let album = try store.add("Large", by: "X", "--cover-url", server.url("/files/large.png"))

        let largeRun = try store.cli.runMeasuringPeakMemory(["covers", "fetch"])

        #expect(smallRun.status == 0 && largeRun.status == 0)
        #expect(largeRun.maxRSSKiB - smallRun.maxRSSKiB < 6 * 1024, "\(smallRun.maxRSSKiB) KiB, then \(largeRun.maxRSSKiB) KiB")
        #expect(try store.run("covers", "get", String(album.id), "-o", store.cli.path("out.png")).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.cli.path("out.png"))) == Self.png(padding: 15 * 1024 * 1024))
    }

    @Test(.enabled(if: HostileHTTPServer.isAvailable, "needs python3 for a loopback HTTP server"))
    func fetchAndExportTakeAQuery() throws {
        let server = try HostileHTTPServer(serving: store.cli.directory.path)
        _ = try file("q.gif", Data(Self.gif.utf8))
        let cover = server.url("/files/q.gif")
        let bowie = try store.add("Low", by: "David Bowie", "--cover-url", cover)
        let cure = try store.add("Disintegration", by: "The Cure", "--cover-url", cover)

        #expect(try store.run("covers", "fetch", "artist:bowie").stderr.hasPrefix("Fetched 1 cover; 0 failed"))
        #expect(try store.run("covers", "get", String(cure.id), "-o", store.cli.path("x.gif")).status == 1)
        #expect(try store.run("covers", "fetch").stderr.hasPrefix("Fetched 1 cover; 0 failed"))

        #expect(try store.run("covers", "export", "--dir", store.cli.path("cure"), "artist:cure").status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.cli.path("cure")) == ["\(cure.id)-the-cure-disintegration.gif"])
        #expect(bowie.id != cure.id)
    }

    @Test(.enabled(if: PseudoTerminal.isAvailable, "needs python3 for a pseudo-terminal"))
    func getRefusesToWriteImageBytesToATerminal() throws {
        let album = try store.add("Low")
        try store.run("covers", "set", String(album.id), try file("c.png", Self.png(padding: 10)))
        let result = try PseudoTerminal.run(store.cli, ["covers", "get", String(album.id)], columns: 80)
        #expect(result.status == 2)
        #expect(!result.stdout.contains("PNG"))
        #expect(result.stderr.contains("Refusing to write image bytes to a terminal: use -o FILE or redirect stdout."))
    }

    @Test func aMissingAlbumIsRefusedInOneLine() throws {
        try store.add("Low")
        let before = try store.snapshot()
        expectRefused(try store.run("covers", "set", "99", try file("c.gif", Data(Self.gif.utf8))), saying: "no album with id 99")
        expectRefused(try store.run("covers", "rm", "99"), saying: "no album with id 99")
        #expect(try store.snapshot() == before)
    }

    @Test func helpListsEveryCoversCommandWithExamples() throws {
        let help = try store.run("covers", "--help").stdout
        for command in ["set", "get", "rm", "fetch", "export", "gc", "stats"] { #expect(help.contains("  \(command) ")) }
        #expect(help.contains("albumstore covers fetch"))
    }
}

extension CoversCommandTests {
    @Test func getIntoAFolderSaysItIsAFolderAndWhatToDo() throws {
        let album = try store.add("Low")
        try store.run("covers", "set", String(album.id), try file("c.gif", Data(Self.gif.utf8)))
        let folder = store.cli.path("covers")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

        let result = try store.run("covers", "get", String(album.id), "-o", folder)

        expectUsageError(result, saying: "\(folder) is a folder: give a file name (-o \(folder)/cover.jpg), or write every "
            + "cover into it with `albumstore covers export --dir \(folder)`.")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}
