// The getting-started article (Sources/AlbumStore/AlbumStore.docc/GettingStarted.md), step by
// step, on a real file. Every Swift block of the article is here word for word, between
// `// article {` and `// article }`, so it compiles with the suite; `theArticleIsTheCodeHere`
// fails when the two differ. The steps run in the article's order, checked between the blocks.
import AlbumStore
import Foundation
import Testing
import TestSupport

struct GettingStartedTests {
    let directory: TemporaryDirectory
    var folder: URL { directory.url }

    init() throws { directory = try TemporaryDirectory() }

    @Test func theArticleIsTheCodeHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(contentsOf: root.appendingPathComponent("Sources/AlbumStore/AlbumStore.docc/GettingStarted.md"), encoding: .utf8)
        let blocks = Self.blocks(in: article, between: "```swift", and: "```")
        // The first block is the app's Package.swift: it names the product this package declares.
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(blocks.first?.joined(separator: "\n").contains(".product(name: \"AlbumStore\"") == true)
        #expect(manifest.contains(".library(name: \"AlbumStore\""))

        let code = Self.blocks(in: try String(contentsOf: here, encoding: .utf8), between: "// article {", and: "// article }")
        let withoutImports = blocks.dropFirst().map { $0.filter { !$0.hasPrefix("import ") }.drop { $0.isEmpty } }
        #expect(withoutImports.map(Array.init) == code, "the article's code and this file's differ")
        #expect(code.count == 11)
    }

    /// The lines between each `start` line and the next `end` line, without their common indent.
    static func blocks(in text: String, between start: String, and end: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == start {
                current = []
            } else if let lines = current, trimmed == end {
                let indent = lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
                blocks.append(lines.map { String($0.dropFirst(min(indent, $0.count))) })
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    // MARK: The article's steps

    // The reads have async twins, which Swift picks in an async function: the steps that read
    // are synchronous functions, as in an app's synchronous code.
    @Test func theArticleBuildsTheAlbumAppsDataLayer() async throws {
        // Open the library: the article's code opens it in the home folder, so it is compiled
        // (`openInTheHomeFolder`) but not run; the test opens the same way in its own folder.
        let library = try Library.open(at: folder.appendingPathComponent("library.sqlite"))
        try Self.importListCoversAndSession(library, folder: folder)
        #expect(try await Self.fetchCovers(library).stored.isEmpty)   // no album has a cover URL
        try await Self.followEveryChange(library)
        try Self.undoAndRedo(library)
        let moved = try await Self.writeFromAsyncCode(library)
        let titles = try await library.albums.page().map(\.album.title)
        #expect(moved.title == "Lodger" && titles == ["Lodger", "Heroes", "Kind of Blue"])

        // Close.
        library.close()
        await #expect(throws: StorageError.self) { try await library.albums.count() }
    }

    static func importListCoversAndSession(_ library: Library, folder: URL) throws {
        try Data("title,artist,year\nHeroes,David Bowie,1977\nKind of Blue,Miles Davis,1959\n".utf8)
            .write(to: folder.appendingPathComponent("albums.csv"))
        let summary = try importACatalog(library, folder: folder)
        #expect(summary.inserted == 2 && summary.skippedDuplicates == 0)
        #expect(try importACatalog(library, folder: folder).skippedDuplicates == 2)

        let (firstScreen, low, found) = try theOrderedList(library)
        #expect(firstScreen.map(\.album.title) == ["Heroes", "Kind of Blue"])
        #expect(found.map(\.title) == ["Low", "Heroes"] && found[0].genre == "Art rock")
        #expect(throws: AlbumError.self) { try library.albums.append(AlbumDraft(title: "", artist: "Nobody")) }

        var shown: [Data] = []
        try covers(library, low: low, downloadedBytes: gif) { shown.append($0) }
        #expect(shown == [gif])

        let steps = try library.historyEntries().count
        let (current, tabs) = try currentAlbumAndTabs(library)
        #expect(current?.album.title == "Kind of Blue" && current?.index == 2)
        #expect(tabs == ["search", "albums", "stats"])
        #expect(try yourOwnState(library) == 0.8)
        #expect(try library.historyEntries().count == steps)   // saving state took no step
    }

    static func openInTheHomeFolder() throws -> Library {
        // article {
        let folder = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".bluelibrary")
        let library = try Library.open(at: folder.appendingPathComponent("library.sqlite"))
        // article }
        return library
    }

    static func importACatalog(_ library: Library, folder: URL) throws -> ImportSummary {
        // article {
        let catalog = folder.appendingPathComponent("albums.csv")   // an export of your albums
        let summary = try library.importAlbums(from: .file(catalog.path))
        print("\(summary.inserted) new albums, \(summary.skippedDuplicates) already there")
        // article }
        return summary
    }

    static func theOrderedList(_ library: Library) throws -> ([(index: Int, album: Album)], Album, [Album]) {
        // article {
        let albums = library.albums
        let firstScreen = try albums.page(offset: 0, limit: 20)     // [(index, album)]

        let low = try albums.append(AlbumDraft(title: "Low", artist: "David Bowie", genre: "Rock", year: 1977))
        try albums.move(id: low.id, to: 0)                           // drag it to the front
        try albums.update(id: low.id) { $0.genre = "Art rock" }
        let found = try albums.albums(matching: AlbumQuery(parsing: "artist:bowie year:1970..1979"))
        // article }
        return (firstScreen, low, found)
    }

    static func covers(_ library: Library, low: Album, downloadedBytes: Data, show: (Data) -> Void) throws {
        // article {
        try library.covers.set(albumID: low.id, from: .data(downloadedBytes, name: "low.jpg"))
        if let bytes = try library.covers.data(albumID: low.id) {
            show(bytes)
        }
        // article }
    }

    static func fetchCovers(_ library: Library) async throws -> CoverFetchSummary {
        // article {
        let fetched = try await library.covers.fetchMissing { done, total in print("\(done)/\(total)") }
        // article }
        return fetched
    }

    static func currentAlbumAndTabs(_ library: Library) throws -> (ResolvedCurrentAlbum?, [String]) {
        // article {
        let session = library.session
        try session.setDefaultTabOrder(["albums", "search", "stats"])

        // When the user scrolls to an album or reorders the tabs:
        try session.setCurrentAlbum(at: 2)
        try session.setTabOrder(["search", "albums", "stats"])      // writes nothing when unchanged

        // At the next launch:
        let current = try session.currentAlbum()                     // ResolvedCurrentAlbum?
        let tabs = try session.tabOrder()
        // article }
        return (current, tabs)
    }

    static func yourOwnState(_ library: Library) throws -> Double? {
        let session = library.session
        // article {
        struct Player: Codable { var volume: Double }
        try session.setValue(Player(volume: 0.8), forKey: "player")
        let player = try session.value(Player.self, forKey: "player")
        // article }
        return player?.volume
    }

    /// The app's screen: the article's `titleLabel`, on the main actor as a UI's would be.
    @MainActor final class Screen {
        let shown: AsyncStream<String>
        private let show: AsyncStream<String>.Continuation
        var titleLabel = "" { didSet { show.yield(titleLabel) } }

        init() { (shown, show) = AsyncStream.makeStream() }

        func follow(_ library: Library) {
            // article {
            Task {
                for try await count in library.observe([.albums], { try await $0.albums.count() }) {
                    titleLabel = "\(count) albums"
                }
            }
            // article }
        }
    }

    static func followEveryChange(_ library: Library) async throws {
        let screen = await Screen()
        await screen.follow(library)
        var shown = screen.shown.makeAsyncIterator()
        #expect(await shown.next() == "3 albums")
        try library.albums.append(AlbumDraft(title: "Lodger", artist: "David Bowie"))
        #expect(await shown.next() == "4 albums")
    }

    static func undoAndRedo(_ library: Library) throws {
        let albums = library.albums
        let low = try albums.album(at: 0)
        // article {
        try albums.delete(id: low.id)
        let entry = try library.undo()            // the album is back, at its place
        print("undid \(entry.description)")
        try library.redo()
        // article }
        let gone = try albums.album(id: low.id) == nil
        #expect(!entry.description.isEmpty && gone)

        #expect(try albums.page().map(\.album.title) == ["Heroes", "Kind of Blue", "Lodger"])
        // article {
        try library.write("swap first two") { library in
            let first = try library.albums.album(at: 0)
            try library.albums.move(id: first.id, to: 1)
        }
        // article }
        #expect(try albums.page().map(\.album.title) == ["Kind of Blue", "Heroes", "Lodger"])
        #expect(try library.undo().description == "swap first two")
    }

    static func writeFromAsyncCode(_ library: Library) async throws -> Album {
        // article {
        let moved = try await library.write("move the last to the front") { library in
            try library.albums.move(id: try library.albums.album(at: -1).id, to: 0)
        }
        // article }
        return moved
    }

    /// A 1×1 GIF.
    static let gif = Data([
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0xFF, 0xFF,
        0x00, 0x00, 0x00, 0x21, 0xF9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B,
    ])
}
