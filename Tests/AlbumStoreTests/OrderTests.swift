import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// The order stays right where the cheap paths give out: gaps used up, lists longer than a block.
struct OrderTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    @Test func insertingManyTimesAtTheSameIndexSpreadsKeysAndKeepsTheOrder() throws {
        let library = try Library.open(at: directory.file("library.sqlite"))
        try library.albums.append(.sample("first"))
        try library.albums.append(.sample("last"))
        // Each insert halves the same gap: 32 halvings use up 2^32, then the window is spread.
        for number in 0..<100 { try library.albums.insert(.sample("n\(number)"), at: 1) }

        #expect(try library.titles() == ["first"] + (0..<100).reversed().map { "n\($0)" } + ["last"])
        let positions = try Connection(path: library.path).query("SELECT position FROM albums ORDER BY position") { try $0[0, as: Int64.self] }
        #expect(Set(positions).count == positions.count)
    }

    @Test func indexLookupsMatchAFullScanAcrossManyBlocks() throws {
        let url = directory.file("big.sqlite")
        let library = try Library.open(at: url)
        try fill(library, count: 5000)

        var expected = try library.titles()
        var random = SeededRandom()
        let seed = random.seed
        for step in 0..<60 {
            switch step % 3 {
            case 0:
                let index = Int.random(in: 0...expected.count, using: &random)
                try library.albums.insert(.sample("x\(step)"), at: index)
                expected.insert("x\(step)", at: index)
            case 1:
                let index = Int.random(in: 0..<expected.count, using: &random)
                expected.remove(at: index)
                try library.albums.delete(at: index)
            default:
                let from = Int.random(in: 0..<expected.count, using: &random)
                let to = Int.random(in: 0..<expected.count, using: &random)
                let album = try library.albums.album(at: from)
                try library.albums.move(id: album.id, to: to)
                expected.insert(expected.remove(at: from), at: to)
            }
        }
        #expect(try library.titles() == expected, "seed \(seed)")
        for index in stride(from: 0, to: expected.count, by: 397) {
            let album = try library.albums.album(at: index)
            #expect(album.title == expected[index], "seed \(seed)")
            #expect(try library.albums.index(of: album.id) == index, "seed \(seed)")
        }
        #expect(try library.albums.page(offset: 4000, limit: 3).map(\.album.title) == Array(expected[4000..<4003]), "seed \(seed)")
    }

    @Test func anotherProcessWritingIsSeenByIndexLookups() throws {
        let url = directory.file("shared.sqlite")
        let library = try Library.open(at: url)
        try fill(library, count: 3000)
        #expect(try library.albums.album(at: 2500).title == "a2500")

        // Another connection (as another process would) deletes the first 1000 albums.
        try Connection(path: url.path).run("DELETE FROM albums WHERE id <= 1000")

        #expect(try library.albums.album(at: 1500).title == "a2500")
        #expect(try library.albums.count() == 2000)
    }

    /// Adds `count` albums "a0", "a1", ... in one transaction, straight through SQL.
    private func fill(_ library: Library, count: Int) throws {
        let connection = try Connection(path: library.path)
        try connection.transaction {
            for number in 0..<count {
                try connection.run(
                    "INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (?, ?, 'A', 0, 0)",
                    Int64(number) << 32, "a\(number)")
            }
        }
    }
}
