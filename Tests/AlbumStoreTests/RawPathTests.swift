import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// A rescan pairs the walk's files with the stored ones in one pass (`PathMerge`), so `RawPath`
/// must order paths exactly as SQLite orders their blobs.
struct RawPathTests {
    @Test func pathsOrderAsSQLiteOrdersTheirBlobs() throws {
        var generator = SeededRandom()
        let seed = generator.seed
        // Few distinct bytes, so that paths share prefixes, and bytes past 0x7F, as names that
        // are not UTF-8 have.
        let alphabet: [UInt8] = [0x01, 0x2F, 0x30, 0x61, 0x7F, 0x80, 0xC3, 0xFF]
        var paths: [RawPath] = []
        for _ in 0..<2000 {
            let length = Int.random(in: 1..<8, using: &generator)
            paths.append(RawPath((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        let directory = try TemporaryDirectory()
        let connection = try Connection(path: directory.file("order.sqlite").path)
        try connection.execute("CREATE TABLE paths (path BLOB NOT NULL)")
        for path in paths { try connection.run("INSERT INTO paths (path) VALUES (?)", path.bytes) }
        let bySQLite = try connection.query("SELECT path FROM paths ORDER BY path") { RawPath(try $0[0, as: [UInt8].self]) }
        #expect(paths.sorted() == bySQLite, "seed \(seed)")
        for (a, b) in zip(paths, paths.dropFirst()) {
            #expect((a < b) == a.bytes.lexicographicallyPrecedes(b.bytes), "\(a.bytes) < \(b.bytes), seed \(seed)")
        }
    }
}
