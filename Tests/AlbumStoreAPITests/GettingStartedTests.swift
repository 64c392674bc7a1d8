// The getting-started article (Sources/AlbumStore/AlbumStore.docc/GettingStarted.md), step by
// step, on a real file: if a call it shows changes, this fails. Keep the two in step.
import AlbumStore
import Foundation
import Testing

struct GettingStartedTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("albumstore-start-\(UUID().uuidString)")

    // The article's calls are an app's synchronous ones (in an async function Swift would pick
    // the async overloads), so each step but observation is a synchronous function.
    @Test func theArticleBuildsTheAlbumAppsDataLayer() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // Open the library.
        let library = try Library.open(at: folder.appendingPathComponent("library.sqlite"))
        try Self.importListCoversAndSession(library, folder: folder)

        // Follow every change: the value now, then after a commit.
        var counts = library.observe(["albums"]) { try await $0.albums.count() }.makeAsyncIterator()
        #expect(try await counts.next() == 2)
        try Self.append(AlbumDraft(title: "Lodger", artist: "David Bowie"), to: library)
        #expect(try await counts.next() == 3)

        try Self.undoRedoAndClose(library)
    }

    static func append(_ draft: AlbumDraft, to library: Library) throws {
        try library.albums.append(draft)
    }

    static func importListCoversAndSession(_ library: Library, folder: URL) throws {
        // Import a catalog.
        let catalog = folder.appendingPathComponent("albums.csv")
        try Data("title,artist,year\nHeroes,David Bowie,1977\nKind of Blue,Miles Davis,1959\n".utf8).write(to: catalog)
        let summary = try library.importAlbums(from: .file(catalog.path))
        #expect(summary.inserted == 2 && summary.skippedDuplicates == 0)
        #expect(try library.importAlbums(from: .file(catalog.path)).skippedDuplicates == 2)

        // The ordered list.
        let albums = library.albums
        #expect(try albums.page(offset: 0, limit: 20).map(\.album.title) == ["Heroes", "Kind of Blue"])
        let low = try albums.append(AlbumDraft(title: "Low", artist: "David Bowie", genre: "Rock", year: 1977))
        try albums.move(id: low.id, to: 0)
        try albums.update(id: low.id) { $0.genre = "Art rock" }
        let found = try albums.albums(matching: AlbumQuery(parsing: "artist:bowie year:1970..1979"))
        #expect(found.map(\.title) == ["Low", "Heroes"] && found[0].genre == "Art rock")
        #expect(throws: AlbumError.self) { try albums.append(AlbumDraft(title: "", artist: "Nobody")) }

        // Covers.
        let downloadedBytes = Self.gif
        try library.covers.set(albumID: low.id, from: .data(downloadedBytes, name: "low.jpg"))
        #expect(try library.covers.data(albumID: low.id) == downloadedBytes)

        // The current album and the tab order.
        let session = library.session
        try session.setDefaultTabOrder(["albums", "search", "stats"])
        #expect(try session.tabOrder() == ["albums", "search", "stats"])
        try session.setCurrentAlbum(at: 2)
        #expect(try session.setTabOrder(["search", "albums", "stats"]))
        #expect(try !session.setTabOrder(["search", "albums", "stats"]))
        try albums.delete(at: 2)
        let current = try #require(try session.currentAlbum())
        #expect(current.index == 1 && !current.isSavedAlbum)
        #expect(try session.tabOrder() == ["search", "albums", "stats"])

        struct Player: Codable, Equatable { var volume: Double }
        try session.setValue(Player(volume: 0.8), forKey: "player")
        #expect(try session.value(Player.self, forKey: "player") == Player(volume: 0.8))
        #expect(try session.takeSnapshot(named: "evening").state.keyNames == ["player"])
    }

    static func undoRedoAndClose(_ library: Library) throws {
        // Undo and redo.
        let albums = library.albums
        let lodger = try albums.album(at: -1)
        try albums.delete(id: lodger.id)
        let entry = try library.undo()
        #expect(try albums.album(at: -1) == lodger && !entry.description.isEmpty)
        try library.redo()
        #expect(try albums.count() == 2)
        try library.write("swap first two") { library in
            let first = try library.albums.album(at: 0)
            try library.albums.move(id: first.id, to: 1)
        }
        #expect(try albums.page().map(\.album.title) == ["Heroes", "Low"])
        #expect(try library.undo().description == "swap first two")

        // Close.
        library.close()
        #expect(throws: StorageError.self) { try library.albums.count() }
    }

    /// A 1×1 GIF.
    static let gif = Data([
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0xFF, 0xFF,
        0x00, 0x00, 0x00, 0x21, 0xF9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B,
    ])
}
