import AlbumStore
import Foundation
import Testing
import TestSupport

/// An album app's data layer from start to end, as one runnable example of the library's API:
/// open, import, observe while another process writes, several changes as one transaction,
/// undo, cancel a slow query, close. Another process here is the real `albumstore` binary.
struct AppClientExampleTests {
    @Test func anAppOpensImportsObservesWritesUndoesCancelsAndCloses() async throws {
        let cli = try CLI()
        let path = cli.path("library.sqlite")
        let catalog = cli.path("catalog.csv")
        try "title,artist,genre,year\nLow,David Bowie,Rock,1977\nBlue,Joni Mitchell,Folk,1971\nKind of Blue,Miles Davis,Jazz,1959\n"
            .write(toFile: catalog, atomically: true, encoding: .utf8)

        // Open (creating the file) and import a catalog.
        let library = try Library.open(atPath: path)
        let summary = try library.importAlbums(from: .file(catalog))
        #expect(summary.inserted == 3)

        // Observe: changes committed by any process reach the app.
        let changes = library.changes
        let added = try cli.run(["add", "--db", path, "--title", "Heroes", "--artist", "David Bowie"])
        #expect(added.status == 0, "\(added.stderr)")
        let seen = await value(of: Task {
            var iterator = changes.makeAsyncIterator()
            return await iterator.next()
        })
        let set = try #require(seen ?? nil, "no change set from the other process")
        #expect(set.albums.inserted.count == 1)
        let heroes = try await library.albums.album(at: -1)
        #expect(heroes.title == "Heroes")

        // Move the new album to the front and make it current: one transaction, one undo step.
        try await library.write("show Heroes first") { library in
            try library.albums.move(id: heroes.id, to: 0)
            try library.session.setCurrentAlbum(id: heroes.id)
        }
        #expect(try await library.albums.album(at: 0).id == heroes.id)
        #expect(try library.session.currentAlbum()?.album.id == heroes.id)

        try library.undo()
        #expect(try await library.albums.album(at: -1).id == heroes.id)
        #expect(try library.session.currentAlbum() == nil)

        // Cancel a slow query: a pattern tried at every place of many long titles.
        let long = String(repeating: "a", count: 1_000)
        try library.albums.append(contentsOf: (0..<300).map { AlbumDraft(title: long, artist: "Artist \($0)") })
        let slow = Task { try await library.albums.albums(matching: try AlbumQuery(parsing: "title::.{0,100}c")) }
        let cancelled = ContinuousClock.now
        slow.cancel()
        let outcome = await slow.result
        #expect(ContinuousClock.now - cancelled < .seconds(2))
        #expect(throws: CancellationError.self) { try outcome.get() }
        try library.undo()

        // Close: later calls throw, the file is free for others.
        library.close()
        #expect(throws: StorageError.self) { try library.albums.count() }
        let listed = try cli.run(["list", "--db", path, "--format", "json"])
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("Heroes"))
    }
}
