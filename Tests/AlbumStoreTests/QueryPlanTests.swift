import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// Each query shape uses an index or the full-text index where one applies: none scans the
/// albums table (`EXPLAIN QUERY PLAN`), with and without the planner's statistics.
struct QueryPlanTests {
    let directory: TemporaryDirectory
    let library: Library

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
        let genres = ["Rock", "Jazz", "Pop", "Metal"]
        try library.albums.append(contentsOf: (0..<2000).map { number in
            AlbumDraft(title: "Title \(number)", artist: "Artist \(number % 300)", genre: number % 50 == 0 ? nil : genres[number % genres.count],
                       year: number % 7 == 0 ? nil : 1950 + number % 70, externalID: number % 3 == 0 ? "ext:\(number)" : nil)
        })
    }

    /// The plan's lines for `query`, as the library runs it.
    func plan(_ text: String, sort: String? = nil, limit: Int = .max, statistics: Bool, asOfAMillionAlbums: Bool = false) throws -> [String] {
        let select = try AlbumRepository.select(
            AlbumQuery(parsing: text), sort: sort.map { try AlbumSort(parsing: $0) } ?? .listOrder)
        let (sql, arguments) = select.statement(offset: 0, limit: limit)
        return try plan(sql, arguments: arguments.bindings, statistics: statistics, asOfAMillionAlbums: asOfAMillionAlbums)
    }

    /// The statistics ANALYZE leaves on a million albums (bench-serve's: 8 genres, 70 years):
    /// written over this library's, the planner weighs its plans as it would there.
    static let millionAlbumStatistics = [
        ("albums_genre", "1000000 125000 3572 1"), ("albums_year", "1000000 14286"), ("albums_artist", "1000000 200 29"),
        ("albums_position", "1000000 1"), ("albums_match_key", "1000000 1"),
    ]

    func plan(_ sql: String, arguments: [(any Bindable)?], statistics: Bool, asOfAMillionAlbums: Bool = false) throws -> [String] {
        let connection = try Connection(path: library.path)
        try QueryFunctions.register(on: connection)
        try connection.execute(statistics ? "ANALYZE" : "DROP TABLE IF EXISTS sqlite_stat1")
        if asOfAMillionAlbums {
            for (index, stat) in Self.millionAlbumStatistics {
                try connection.run("UPDATE sqlite_stat1 SET stat = ? WHERE idx = ?", stat, index)
            }
        }
        // A fresh connection reads the statistics (or their absence) when it prepares.
        let reader = try Connection(path: library.path)
        try QueryFunctions.register(on: reader)
        return try reader.prepare("EXPLAIN QUERY PLAN " + sql).map(arguments) { try $0[3, as: String.self] }
    }

    static let shapes: [(query: String, sort: String?, uses: String)] = [
        ("artist:=Artist 7", nil, "USING INDEX albums_artist"),
        ("genre:=Rock year:1990..1999", "year", "INDEX albums_genre"),
        ("genre:=Rock year:1990..1999", nil, "INDEX albums_genre"),
        ("genre:", nil, "INDEX albums_genre"),
        ("year:1990..1999", nil, "USING INDEX albums_year"),
        ("year:..1960", "year:desc", "USING INDEX albums_year"),
        ("external_id:=ext:9", nil, "USING INDEX albums_external_id"),
        ("id:5", nil, "USING INTEGER PRIMARY KEY"),
        ("title", nil, "VIRTUAL TABLE INDEX"),
        ("tit*", nil, "VIRTUAL TABLE INDEX"),
        ("\"title 12\" artist", "year", "VIRTUAL TABLE INDEX"),
        ("artist:=Artist 7 OR genre:=Jazz year:1960", nil, "MULTI-INDEX OR"),
    ]

    @Test(arguments: [false, true], [50, Int.max])
    func noShapeScansTheTableWhereAnIndexApplies(statistics: Bool, limit: Int) throws {
        // With statistics, `genre:` walks the list order instead of sorting: sqlite_stat1 counts
        // rows per genre, not how rare a missing one is, so the planner guesses a fifth match.
        for shape in Self.shapes where !(statistics && shape.query == "genre:") {
            let lines = try plan(shape.query, sort: shape.sort, limit: limit, statistics: statistics)
            let text = lines.joined(separator: " | ")
            #expect(text.contains(shape.uses), "\(shape.query): \(text)")
            #expect(!lines.contains { $0.hasPrefix("SCAN albums") && !$0.contains("INDEX") }, "\(shape.query): \(text)")
        }
    }

    /// Every result: no LIMIT, so SQLite sorts the rows as they come instead of keeping them in
    /// a b-tree of its own, with a page cache of its own (see `QuerySQL.Select.sql`).
    /// An import into an empty library builds its indexes at the end: each then has planner
    /// statistics too. They were missing when a row repeated an earlier one (a suspect, which
    /// the filter's false positives also make on a large file), and a page of a year range
    /// then sorted every match.
    @Test func anImportLeavesStatisticsForEveryIndex() throws {
        let imported = try Library.open(at: directory.file("imported.sqlite"))
        let csv = "title,artist,genre,year,external_id\n"
            + (0..<2000).map { "Title \($0),Artist \($0 % 300),Jazz,\(1950 + $0 % 70),ext:\($0)\n" }.joined()
            + "Title 5,Artist 5,Jazz,1955,ext:5\n"
        _ = try imported.importAlbums(from: .data(Data(csv.utf8), name: "catalog.csv"))
        let connection = try Connection(path: imported.path)
        let analyzed = try connection.query("SELECT idx FROM sqlite_stat1 WHERE tbl = 'albums'") { try $0[0, as: String.self] }
        let indexes = try connection.query(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'albums' AND sql IS NOT NULL") { try $0[0, as: String.self] }
        #expect(Set(analyzed) == Set(indexes))
        #expect(indexes.contains("albums_year") && indexes.contains("albums_genre"))
    }

    @Test func allResultsAreSortedWithoutATemporaryBTree() throws {
        let select = try AlbumRepository.select(AlbumQuery(parsing: "artist:=Artist 7"), sort: .listOrder)
        let connection = try Connection(path: library.path)
        try QueryFunctions.register(on: connection)
        func opcodes(limit: Int) throws -> [String] {
            let (sql, arguments) = select.statement(offset: 0, limit: limit)
            return try connection.prepare("EXPLAIN " + sql).map(arguments.bindings) { try $0[1, as: String.self] }
        }
        let all = try opcodes(limit: .max), page = try opcodes(limit: 50)
        #expect(all.contains("SorterOpen"))
        #expect(all.count { $0 == "OpenEphemeral" } < page.count { $0 == "OpenEphemeral" })
        #expect(select.statement(offset: 0, limit: 50).sql.contains(" LIMIT 50 OFFSET ?) "))
        #expect(select.statement(offset: 10, limit: .max).arguments.last == .integer(10))
    }

    /// A page picks its ids from an index that holds every column its conditions and order read:
    /// the matches outside the page are never read from the table.
    /// On a million albums, reading the year index and then the table for 143,000 albums of a
    /// decade took six times as long as the genre index alone.
    @Test(arguments: ["genre:jazz year:1970..1979", "year:1970..1979"])
    func aPageOfAYearRangeOnAMillionAlbumsReadsTheGenreIndexAlone(query: String) throws {
        let lines = try plan(query, limit: 100, statistics: true, asOfAMillionAlbums: true)
        #expect(lines.contains { $0.contains("COVERING INDEX albums_genre") }, "\(lines)")
    }

    @Test func countsPerGenreReadTheGenreIndexAlone() throws {
        let lines = try plan("SELECT genre, count(*) FROM albums GROUP BY genre", arguments: [], statistics: true)
        #expect(lines.contains { $0.contains("COVERING INDEX albums_genre") }, "\(lines)")
    }

    @Test func theListOrderComesFromThePositionIndex() throws {
        let lines = try plan("", statistics: false)
        #expect(lines == ["SCAN albums USING INDEX albums_position"])
    }
}
