// The covers part of the public API, used as an app would: through `import AlbumStore` alone.
import AlbumStore
import Foundation
import Testing

struct CoversAPITests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("albumstore-covers-api-\(UUID().uuidString)")
    static let gif = Data("GIF89a".utf8) + Data([5, 0, 3, 0, 0, 0, 0, 0x3B])

    @Test func anAppStoresReadsExportsAndFetchesCovers() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = try Library.open(at: folder.appendingPathComponent("library.sqlite"))
        let source = folder.appendingPathComponent("cover.gif")
        try Self.gif.write(to: source)
        let low = try library.albums.append(AlbumDraft(title: "Low", artist: "David Bowie"))
        let heroes = try library.albums.append(AlbumDraft(title: "Heroes", artist: "David Bowie", coverURL: source.absoluteString))

        let info = try library.covers.set(albumID: low.id, from: .file(source), sizeLimit: CoverRepository.defaultSizeLimit)
        #expect(info.format.mimeType == "image/gif" && info.format.fileExtension == "gif")
        #expect(info.width == 5 && info.height == 3 && info.byteCount == Self.gif.count)
        #expect(try library.covers.info(albumID: low.id) == info)
        #expect(try library.covers.data(albumID: low.id) == Self.gif)
        var streamed = Data()
        try library.covers.read(albumID: low.id, chunkSize: 4) { streamed.append(contentsOf: $0) }
        #expect(streamed == Self.gif)
        var batch: [Int64: Data?] = [:]
        try library.covers.data(albumIDs: [low.id, heroes.id]) { id, data in batch[id] = data }
        #expect(batch == [low.id: Self.gif, heroes.id: nil])

        // An app's own download, in memory.
        #expect(try library.covers.set(albumID: low.id, from: .data(Self.gif, name: "download")) == info)

        #expect(try library.covers.albumsWithoutCover().map(\.id) == [heroes.id])
        // Only http and https are downloaded: a file URL is a failure, never read.
        let summary = try await library.covers.fetchMissing(options: CoverFetchOptions(concurrency: 2)) { _, _ in }
        #expect(summary.stored.isEmpty && summary.withoutURL.isEmpty)
        #expect(summary.failures.map(\.albumID) == [heroes.id])
        _ = try library.covers.set(albumID: heroes.id, from: .file(source), sizeLimit: CoverRepository.defaultSizeLimit)

        let stats = try library.covers.stats()
        #expect(stats.imageCount == 1 && stats.bytesSavedByDeduplication == Self.gif.count && stats.albumsWithoutCover == 0)

        let exported = try library.covers.export([low, heroes], to: folder.appendingPathComponent("export"))
        #expect(exported.files.map(\.lastPathComponent) == ["\(low.id)-david-bowie-low.gif", "\(heroes.id)-david-bowie-heroes.gif"])
        #expect(try library.covers.write(albumID: low.id, to: folder.appendingPathComponent("copy.gif")) == info)

        try library.covers.remove(albumID: low.id)
        try library.covers.remove(albumID: heroes.id)
        #expect(try library.covers.collectGarbage().imagesRemoved == 0)
        try library.dropHistory()
        let report = try library.covers.collectGarbage()
        #expect(report.imagesRemoved == 1 && report.bytesFreed == Self.gif.count)
        #expect(throws: CoverError.noCover(albumID: low.id)) { try library.covers.remove(albumID: low.id) }
    }
}
