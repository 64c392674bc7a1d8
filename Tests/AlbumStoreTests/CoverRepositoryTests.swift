import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore
#if canImport(Glibc)
import Glibc
#endif

struct CoverRepositoryTests {
    let directory: TemporaryDirectory
    var url: URL { directory.file("library.sqlite") }

    init() throws { directory = try TemporaryDirectory() }

    private func library(albums: Int = 2) throws -> (Library, [Album]) {
        let library = try Library.open(at: url)
        let added = try (0..<albums).map { try library.albums.append(.sample("Album \($0)")) }
        return (library, added)
    }

    private func imageCount() throws -> Int {
        try Connection(path: url.path).scalar("SELECT count(*) FROM cover_images") ?? -1
    }

    @Test(arguments: [
        TestImages.png(width: 600, height: 500), TestImages.jpeg(width: 300, height: 300), TestImages.gif(width: 10, height: 10),
        TestImages.webpLossy(width: 50, height: 40), TestImages.webpLossless(width: 7, height: 7),
        TestImages.webpExtended(width: 8, height: 9),
    ])
    func everyFormatIsStoredAndReadBackByteForByte(image: Data) throws {
        let (library, albums) = try library(albums: 1)
        let info = try library.covers.set(albumID: albums[0].id, data: image)
        #expect(try library.covers.data(albumID: albums[0].id) == image)
        #expect(try library.covers.info(albumID: albums[0].id) == info)
        #expect(info.byteCount == image.count)
    }

    @Test func aNonImageIsRefusedAndNothingChanges() throws {
        let (library, albums) = try library(albums: 1)
        let before = try library.rows(of: "covers")
        #expect(throws: CoverError.notAnImage(source: "image")) {
            try library.covers.set(albumID: albums[0].id, data: Data("<html>404</html>".utf8))
        }
        #expect(try library.rows(of: "covers") == before)
        #expect(try imageCount() == 0)
        #expect(try library.historyEntries().count == 1)   // only the album's append
    }

    /// Headers that claim a size no cover has, whatever follows them.
    @Test(arguments: [
        // A PNG header claiming 4294967295×4294967295, then junk.
        (TestImages.png(width: .max, height: .max).prefix(33) + Data(repeating: 0x5A, count: 1000), 4_294_967_295, 4_294_967_295),
        // 45 bytes: signature, IHDR claiming 2147483647×2147483647, IEND.
        (TestImages.png(width: 2_147_483_647, height: 2_147_483_647).prefix(33) + TestImages.pngEnd, 2_147_483_647, 2_147_483_647),
        (TestImages.png(width: 16_385, height: 1), 16_385, 1),
        (TestImages.png(width: 10_001, height: 10_000), 10_001, 10_000),           // 100,010,000 pixels
        (TestImages.gif(width: 1, height: 65_535), 1, 65_535),
        (TestImages.webpExtended(width: 70_000, height: 9), 70_000, 9),
    ])
    func anImplausiblePixelSizeIsRefusedAndNothingChanges(image: Data, width: Int, height: Int) throws {
        let (library, albums) = try library(albums: 1)
        #expect(throws: CoverError.implausibleSize(source: "image", width: width, height: height)) {
            try library.covers.set(albumID: albums[0].id, data: image)
        }
        #expect(try imageCount() == 0)
        #expect(try library.historyEntries().count == 1)   // only the album's append
    }

    @Test func theLargestPlausibleSizesAreStored() throws {
        let (library, albums) = try library(albums: 2)
        try library.covers.set(albumID: albums[0].id, data: TestImages.png(width: 16_384, height: 6_103))   // 99,991,552 pixels
        try library.covers.set(albumID: albums[1].id, data: TestImages.webpLossless(width: 1, height: 16_384))
        #expect(try imageCount() == 2)
    }

    /// A header followed by anything but the rest of its format's frame.
    @Test(arguments: [
        (TestImages.png(width: 10, height: 10).dropLast(12) + Data(repeating: 0x5A, count: 100), ImageFormat.png,
         "it does not end with an IEND chunk"),
        (TestImages.png(width: 10, height: 10).prefix(33) + TestImages.pngEnd, .png, "it has no chunk between IHDR and IEND"),
        (Data(TestImages.png(width: 10, height: 10).enumerated().map { $0.offset == 11 ? 12 : $0.element }), .png,
         "its IHDR chunk is not 13 bytes long"),
        (TestImages.jpeg(width: 30, height: 30).dropLast(2), .jpeg, "it does not end with an end-of-image marker (FF D9)"),
        (TestImages.gif(width: 3, height: 3).dropLast(), .gif, "it does not end with a trailer byte (3B)"),
        // A global colour table of 256 entries flagged, and none there.
        (Data(TestImages.gif(width: 3, height: 3).enumerated().map { $0.offset == 10 ? 0x87 : $0.element }), .gif,
         "it is cut inside its colour table"),
        (TestImages.webpLossy(width: 5, height: 5) + Data(repeating: 0, count: 10), .webp,
         "its RIFF size says 38 bytes, but it has 48"),
    ] as [(Data, ImageFormat, String)])
    func anIncompleteImageIsRefusedNamingWhatIsMissing(image: Data, format: ImageFormat, reason: String) throws {
        let (library, albums) = try library(albums: 1)
        #expect(throws: CoverError.incompleteImage(source: "image", format: format, reason: reason)) {
            try library.covers.set(albumID: albums[0].id, data: image)
        }
        #expect(try imageCount() == 0)
    }

    @Test func identicalImagesAreStoredOnce() throws {
        let (library, albums) = try library(albums: 3)
        let image = TestImages.png(width: 10, height: 10, padding: 5000)
        for album in albums { try library.covers.set(albumID: album.id, data: image) }
        try library.covers.set(albumID: albums[2].id, data: TestImages.gif(width: 1, height: 1))

        #expect(try imageCount() == 2)
        let stats = try library.covers.stats()
        #expect(stats.imageCount == 2)
        #expect(stats.totalBytes == image.count + TestImages.gif(width: 1, height: 1).count)
        #expect(stats.bytesSavedByDeduplication == image.count)
        #expect(stats.albumsWithCover == 3)
        #expect(stats.albumsWithoutCover == 0)
    }

    @Test func anImageOverTheCapIsRefused() throws {
        let (library, albums) = try library(albums: 1)
        let file = directory.file("big.png")
        try TestImages.png(width: 1, height: 1, padding: 2000).write(to: file)
        #expect(throws: CoverError.tooLarge(source: file.path, limit: 1000)) {
            try library.covers.set(albumID: albums[0].id, from: .file(file), sizeLimit: 1000)
        }
        #expect(try imageCount() == 0)
    }

    /// A FIFO without a writer used to block `set` for good (its open waits for one).
    @Test func aFIFOOrAFolderIsRefusedUnreadNotWaitedFor() throws {
        let (library, albums) = try library(albums: 1)
        let fifo = directory.file("cover.fifo"), folder = directory.file("covers")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let id = albums[0].id
        let refusals = try withDeadline(seconds: 5) {
            [fifo, folder].map { path in
                do {
                    try library.covers.set(albumID: id, from: .file(path))
                    return "stored"
                } catch {
                    return "\(error)"
                }
            }
        }
        #expect(refusals == ["\(fifo.path): not a regular file: it is a FIFO", "\(folder.path): not a regular file: it is a directory"])
        #expect(try imageCount() == 0)
    }

    @Test func aMissingAlbumIsRefused() throws {
        let (library, _) = try library(albums: 0)
        #expect(throws: AlbumError.notFound(id: 99)) { try library.covers.set(albumID: 99, data: TestImages.gif(width: 1, height: 1)) }
        #expect(try imageCount() == 0)
    }

    @Test func a15MBImageStreamsInBoundedChunksBothWays() throws {
        let (library, albums) = try library(albums: 1)
        let file = directory.file("large.png")
        var image = TestImages.png(width: 4000, height: 4000, padding: 15 * 1024 * 1024)
        image[image.count - 20] = 0xAB   // inside the pixels, near the end
        try image.write(to: file)
        try library.covers.set(albumID: albums[0].id, from: .file(file))

        var chunks = 0
        var largest = 0
        var copy = Data()
        try library.covers.read(albumID: albums[0].id, chunkSize: 64 * 1024) { chunk in
            chunks += 1
            largest = max(largest, chunk.count)
            copy.append(contentsOf: chunk)
        }
        #expect(largest == 64 * 1024)
        #expect(chunks == (image.count + 64 * 1024 - 1) / (64 * 1024))
        #expect(copy == image)
    }

    @Test func undoAndRedoOfSetAndRemove() throws {
        let (library, albums) = try library(albums: 1)
        let id = albums[0].id
        let first = TestImages.png(width: 1, height: 1), second = TestImages.gif(width: 2, height: 2)
        try library.covers.set(albumID: id, data: first)
        try library.covers.set(albumID: id, data: second)

        try library.undo()
        #expect(try library.covers.data(albumID: id) == first)
        try library.redo()
        #expect(try library.covers.data(albumID: id) == second)

        try library.covers.remove(albumID: id)
        #expect(try library.covers.data(albumID: id) == nil)
        try library.undo()
        #expect(try library.covers.data(albumID: id) == second)
        try library.redo()
        #expect(try library.covers.info(albumID: id) == nil)
    }

    @Test func historyNamesTheAlbumByItsTitle() throws {
        let (library, albums) = try library(albums: 1)
        try library.covers.set(albumID: albums[0].id, data: TestImages.png(width: 3, height: 2))
        try library.covers.remove(albumID: albums[0].id)

        #expect(try library.historyEntries().suffix(2).map(\.description)
            == ["set the cover of “Album 0” by Artist (png 3×2)", "remove the cover of “Album 0” by Artist"])
    }

    @Test func historyKeepsTheHashNotTheImage() throws {
        let (library, albums) = try library(albums: 1)
        try library.covers.set(albumID: albums[0].id, data: TestImages.png(width: 1, height: 1, padding: 100_000))
        let sizes: [Int] = try Connection(path: url.path).query("SELECT length(changeset) FROM history") { try $0[0] }
        #expect(sizes.allSatisfy { $0 < 500 })
    }

    @Test func gcKeepsWhatHistoryCanBringBackAndRemovesTheRest() throws {
        let (library, albums) = try library(albums: 1)
        let id = albums[0].id
        let old = TestImages.png(width: 1, height: 1, padding: 1000), new = TestImages.gif(width: 2, height: 2)
        try library.covers.set(albumID: id, data: old)
        try library.covers.set(albumID: id, data: new)
        try library.covers.remove(albumID: id)

        #expect(try library.covers.collectGarbage() == CoverGarbageReport(imagesRemoved: 0, bytesFreed: 0))
        try library.undo()
        try library.undo()
        #expect(try library.covers.data(albumID: id) == old)

        try library.dropHistory()
        #expect(try library.covers.collectGarbage() == CoverGarbageReport(imagesRemoved: 1, bytesFreed: new.count))
        #expect(try library.covers.data(albumID: id) == old)
    }

    @Test func deletingAnAlbumDropsItsCoverAndUndoBringsBothBack() throws {
        let (library, albums) = try library(albums: 2)
        let image = TestImages.jpeg(width: 5, height: 5)
        try library.covers.set(albumID: albums[1].id, data: image)
        try library.albums.delete(id: albums[1].id)
        #expect(try library.covers.info(albumID: albums[1].id) == nil)

        try library.undo()
        #expect(try library.covers.data(albumID: albums[1].id) == image)
        try library.redo()
        #expect(try library.covers.info(albumID: albums[1].id) == nil)
        // A new album reusing the id does not inherit the old cover.
        let again = try library.albums.append(.sample("Again"))
        #expect(try library.covers.info(albumID: again.id) == nil)
    }

    @Test func observersGetAChangeSetWhenACoverIsStored() async throws {
        let (library, albums) = try library(albums: 1)
        var changes = library.changes.makeAsyncIterator()
        try library.covers.set(albumID: albums[0].id, data: TestImages.gif(width: 3, height: 3))
        #expect(await changes.next()?.tables["covers"] == TableChanges(inserted: RowIDs([albums[0].id])))
    }

    @Test func listingAndQueryingAlbumsNeverReadTheCoverTables() throws {
        let (library, albums) = try library(albums: 3)
        try library.covers.set(albumID: albums[0].id, data: TestImages.png(width: 9, height: 9, padding: 100_000))
        // With the cover tables gone from the file, album reads that touched them would fail.
        try Connection(path: url.path).execute("ALTER TABLE cover_images RENAME TO hidden_images; ALTER TABLE covers RENAME TO hidden_covers")
        #expect(try library.albums.page().map(\.album.id) == albums.map(\.id))
        #expect(try library.albums.count(matching: AlbumQuery(parsingArguments: ["album"])) == 3)
        #expect(throws: (any Error).self) { try library.covers.info(albumID: albums[0].id) }
    }

    @Test func aCoverFromAnotherProgramWithAnUnknownFormatReadsAsNone() throws {
        let (library, albums) = try library(albums: 1)
        try library.covers.set(albumID: albums[0].id, data: TestImages.gif(width: 3, height: 3))
        try Connection(path: url.path).run("UPDATE cover_images SET format = 'tiff'")
        #expect(try library.covers.info(albumID: albums[0].id) == nil)
        try Connection(path: url.path).run("UPDATE cover_images SET format = 'gif', width = -5")
        #expect(try library.covers.info(albumID: albums[0].id) == nil)
    }
}

extension CoverRepositoryTests {
    /// Read system calls made by this thread so far (Linux), or nil.
    /// Whether this process has the library file memory-mapped now (Linux; `nil` elsewhere).
    private func libraryFileIsMapped() -> Bool? {
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return nil }
        let path = url.resolvingSymlinksInPath().path
        return maps.split(separator: "\n").contains { $0.hasSuffix(" " + path) }
    }

    /// A memory map raises SIGBUS when another process truncates the file under it: a batch
    /// reads the file, it never maps it.
    @Test func aBatchReadGivesEveryAlbumsBytesWithoutMappingTheFile() throws {
        let (library, albums) = try library(albums: 30)
        var expected: [Int64: Data] = [:]
        for (index, album) in albums.enumerated() where index % 3 != 2 {
            let image = TestImages.png(width: 100, height: UInt32(index + 1), padding: 50_000, fill: UInt8(index))
            try library.covers.set(albumID: album.id, data: image)
            expected[album.id] = image
        }
        // Checkpointed, as a library mostly is: pages still in the WAL are read from it.
        try Connection(path: url.path).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        var seen: [Int64] = []
        var mapped: [Bool?] = []
        try library.covers.data(albumIDs: albums.map(\.id)) { id, data in
            seen.append(id)
            mapped.append(libraryFileIsMapped())
            #expect(data == expected[id], "album \(id)")
        }
        #expect(seen == albums.map(\.id))
        #expect(!mapped.contains(true))
    }
}
