import AlbumSQLite
import Testing
@testable import AlbumStore

/// The order statistics of a library file beside a full count of its albums table, block by
/// block, read on a connection of their own (the committed state).
struct BlockCounts {
    var stored: [(first: Int64, count: Int)]
    /// For each stored block, the albums whose key is in its range, counted in the table.
    var counted: [Int]
    var total: Int
    /// The total the library keeps (migration 0010), `nil` in a file without one.
    var storedTotal: Int?
    /// Whether the library would use the stored counts (else it counts the table itself).
    var areChecked: Bool

    init(path: String) throws {
        let connection = try Connection(path: path)
        storedTotal = try OrderBlocks.albums.storedTotal(in: connection)
        (stored, counted, total, areChecked) = try connection.read {
            let rows = try connection.query("""
                SELECT first, count, CASE WHEN b.next IS NULL THEN (SELECT count(*) FROM albums WHERE position >= b.first)
                    ELSE (SELECT count(*) FROM albums WHERE position >= b.first AND position < b.next) END
                FROM (SELECT first, count, lead(first) OVER (ORDER BY first) AS next FROM album_blocks) AS b
                ORDER BY first
                """) { (first: try $0[0, as: Int64.self], count: try $0[1, as: Int.self], counted: try $0[2, as: Int.self]) }
            return (rows.map { ($0.first, $0.count) }, rows.map(\.counted),
                    try connection.scalar("SELECT count(*) FROM albums", as: Int.self) ?? 0,
                    try OrderBlocks.albums.areChecked(in: connection))
        }
    }
}

/// Expects the library's order statistics to be in use and to equal a full count of the
/// albums, block by block, with every block but the first one within its bounds (`balanced`:
/// the library has written since another program did).
func expectOrderStatisticsMatchTheTable(
    _ library: Library, _ comment: Comment? = nil, balanced: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let blocks = try BlockCounts(path: library.path)
    #expect(blocks.areChecked, comment, sourceLocation: sourceLocation)
    #expect(blocks.stored.first?.first == Int64.min, comment, sourceLocation: sourceLocation)
    #expect(blocks.stored.map(\.count) == blocks.counted, comment, sourceLocation: sourceLocation)
    #expect(blocks.counted.reduce(0, +) == blocks.total, comment, sourceLocation: sourceLocation)
    #expect(blocks.storedTotal == blocks.total, "the kept total", sourceLocation: sourceLocation)
    guard balanced else { return }
    #expect(blocks.stored.allSatisfy { $0.count <= 2 * OrderBlocks.size }, comment, sourceLocation: sourceLocation)
    #expect(blocks.stored.dropFirst().allSatisfy { $0.count >= OrderBlocks.size / 4 }, comment, sourceLocation: sourceLocation)
}
