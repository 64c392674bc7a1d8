import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// A refused command is checked before the write lock: it begins no transaction, leaves the
/// file byte for byte as it was, order statistics included.
struct RefusalTests {
    let directory: TemporaryDirectory
    let library: Library
    let album: Album

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
        for draft in AlbumDraft.classics { try library.albums.append(draft) }
        album = try library.albums.append(AlbumDraft(title: "Low", artist: "David Bowie", externalID: "discogs:1"))
    }

    /// The bytes of the database file and its write-ahead log.
    private func fileBytes() throws -> [Data] {
        try ["", "-wal"].map { try Data(contentsOf: URL(fileURLWithPath: library.path + $0)) }
    }

    static let refusals: [(String, @Sendable (Library, Album) throws -> Void)] = [
        ("add without a title", { library, _ in try library.albums.append(AlbumDraft(title: " ", artist: "X")) }),
        ("add a year out of range", { library, _ in try library.albums.append(AlbumDraft(title: "T", artist: "X", year: 99)) }),
        ("add a taken external id", { library, _ in
            try library.albums.append(AlbumDraft(title: "T", artist: "X", externalID: "discogs:1")) }),
        ("insert past the end", { library, _ in try library.albums.insert(.sample("T"), at: 7) }),
        ("insert before the start, counting from the end", { library, _ in try library.albums.insert(.sample("T"), at: -8) }),
        ("move past the end", { library, album in try library.albums.move(id: album.id, to: 6) }),
        ("move before the start, counting from the end", { library, album in try library.albums.move(id: album.id, to: -7) }),
        ("move an unknown album", { library, _ in try library.albums.move(id: 999, to: 0) }),
        ("delete past the end", { library, _ in try library.albums.delete(at: 6) }),
        ("delete before the start, counting from the end", { library, _ in try library.albums.delete(at: -7) }),
        ("delete an unknown album", { library, _ in try library.albums.delete(id: 999) }),
        ("edit to an empty artist", { library, album in try library.albums.update(id: album.id) { $0.artist = "" } }),
        ("redo with nothing undone", { library, _ in try library.redo() }),
    ]

    @Test(arguments: refusals.indices)
    func aRefusedCommandLeavesTheFileAsItWas(_ number: Int) throws {
        let (name, refused) = Self.refusals[number]
        let bytes = try fileBytes()
        let version = try library.database.withWriter { try $0.dataVersion() }

        #expect(throws: (any Error).self, "\(name)") { try refused(library, album) }

        #expect(try fileBytes() == bytes, "\(name) changed the file")
        #expect(try library.albums.album(at: 5) == album)
        #expect(try library.database.withWriter { try $0.dataVersion() } == version)
        #expect(try library.historyEntries().count == 6)
    }

    @Test func aFailedCommandAfterItsChecksLeavesTheOrderStatisticsRight() throws {
        // Passes the checks before the lock, then fails inside its transaction.
        #expect(throws: StorageError.self) {
            _ = try library.perform { command in
                try command.connection.run("DELETE FROM albums WHERE id = ?", album.id)
                try command.connection.run("INSERT INTO no_such_table VALUES (1)")
                return ((), "fails")
            }
        }
        #expect(try library.albums.album(at: 5) == album)
        #expect(try library.albums.index(of: album.id) == 5)
        try expectOrderStatisticsMatchTheTable(library)
    }

    @Test func commandsKeepTheOrderStatisticsRight() throws {
        try library.albums.insert(.sample("front"), at: 0)
        try library.albums.move(id: album.id, to: 1)
        try library.albums.delete(at: 3)
        try library.albums.append(.sample("end"))
        try library.undo()
        try library.redo()
        try library.albums.update(id: album.id) { $0.genre = "Rock" }

        #expect(try library.titles() == ["front", "Low", "Best of Bowie", "Nothing Like The Sun",
                                        "Staring at the Sea", "American Pie", "end"])
        #expect(try library.albums.index(of: album.id) == 1)
        try expectOrderStatisticsMatchTheTable(library)
    }
}
