import AlbumStore
import Foundation
import Testing

/// `albumstore check`: "PATH: ok" and exit 0, or a line per problem and exit 1.
struct CheckCommandTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test func aSoundLibraryIsOK() throws {
        try store.add("Low")
        try store.run("rm", "--at", "0")
        try store.run("undo")

        let result = try store.run("check")

        #expect(result.status == 0)
        #expect(result.stdout == "\(store.db): ok\n")
        #expect(result.stderr == "")
    }

    @Test func aFlippedByteInTheOrderIndexIsFoundAndExitsOne() throws {
        do {
            let library = try Library.open(at: URL(fileURLWithPath: store.db))
            try library.albums.append(contentsOf: (1...200).map { AlbumDraft(title: "Album \($0)", artist: "Artist") })
        }
        let facts = try SQLiteShell.run("""
            PRAGMA wal_checkpoint(TRUNCATE);
            SELECT rootpage FROM sqlite_schema WHERE name = 'albums_position';
            PRAGMA page_size;
            """, on: store.db).split(separator: "\n").compactMap { Int($0) }
        try #require(facts.count == 2)
        try flipByte(inCellsOfPage: facts[0], pageSize: facts[1], of: store.db)

        let result = try store.run("check")

        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("\(store.db): file: ") })
        #expect(lines.contains { $0.contains("albums_position") })
        #expect(result.stderr == "albumstore: \(store.db): \(lines.count) problem\(lines.count == 1 ? "" : "s") found (listed on stdout)\n")
    }

    @Test func aFileThatIsNotALibraryIsOneProblem() throws {
        try Data(String(repeating: "not a database\n", count: 20).utf8).write(to: URL(fileURLWithPath: store.db))

        let result = try store.run("check")

        #expect(result.status == 1)
        #expect(result.stdout == "\(store.db): file: not a SQLite database\n")
    }

    /// Inverts the byte in the middle of page `page`'s cell content (between the start of the
    /// content area, bytes 5-6 of the page header, and the page's end): inside the index's
    /// records, where damage cannot hide in unused space.
    private func flipByte(inCellsOfPage page: Int, pageSize: Int, of path: String) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let start = UInt64((page - 1) * pageSize)
        try handle.seek(toOffset: start)
        let header = try #require(try handle.read(upToCount: 8))
        let contentStart = Int(header[5]) << 8 | Int(header[6])
        let offset = start + UInt64((contentStart + pageSize) / 2)
        try handle.seek(toOffset: offset)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: [byte ^ 0xFF])
    }
}
