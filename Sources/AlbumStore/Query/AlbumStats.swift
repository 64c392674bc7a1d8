internal import AlbumSQLite

/// Counts over the albums a query matches: how many albums, artists and
/// genres, the most frequent genres and artists, and albums per decade.
///
/// Artists and genres are counted as spelled (`Björk` and `bjork` are two). Its `Codable` form
/// has snake_case keys (`top_genres`), as every JSON AlbumStore writes.
public struct AlbumStats: Sendable, Hashable, Codable {
    /// A name (a genre, an artist) and how many albums have it.
    public struct Entry: Sendable, Hashable, Codable {
        /// The genre or artist, as spelled in the library.
        public var name: String
        /// How many of the matching albums have it.
        public var albums: Int
    }

    /// A decade (its first year: 1970 for the 1970s) and how many albums are from it.
    public struct Decade: Sendable, Hashable, Codable {
        /// The decade's first year, e.g. 1970.
        public var decade: Int
        /// How many of the matching albums are from it.
        public var albums: Int
    }

    /// How many albums the query matches.
    public var albums: Int
    /// How many distinct artists they have, as spelled.
    public var artists: Int
    /// How many distinct genres they have, as spelled (albums without one add none).
    public var genres: Int
    /// The most frequent genres, most albums first (ties by name); at most `topCount`, or the
    /// `top` asked for.
    public var topGenres: [Entry]
    /// The most frequent artists, most albums first (ties by name); at most `topCount`, or the
    /// `top` asked for.
    public var topArtists: [Entry]
    /// Albums per decade, oldest first; decades without albums are left out.
    public var decades: [Decade]
    /// Albums without a year (in no decade).
    public var withoutYear: Int

    /// How many genres and artists the tops list unless asked for another number.
    public static let topCount = 10

    enum CodingKeys: String, CodingKey {
        case albums, artists, genres, decades
        case topGenres = "top_genres", topArtists = "top_artists", withoutYear = "without_year"
    }

    /// The counts of the albums `sql` matches, with `top` genres and artists, in one read transaction.
    static func read(_ sql: QuerySQL, top: Int, in connection: Connection) throws -> AlbumStats {
        let totals = try connection.cachedStatement(
            "SELECT count(*), count(DISTINCT artist), count(DISTINCT genre), count(*) - count(year) FROM albums \(sql.whereClause)")
        let (albums, artists, genres, withoutYear) = try totals.first(sql.arguments.bindings) { row in
            (try row[0, as: Int.self], try row[1, as: Int.self], try row[2, as: Int.self], try row[3, as: Int.self])
        } ?? (0, 0, 0, 0)
        func mostFrequent(_ column: String) throws -> [Entry] {
            let statement = try connection.cachedStatement("""
                SELECT \(column), count(*) AS albums FROM albums \(sql.whereClause(and: "\(column) IS NOT NULL"))
                GROUP BY \(column) ORDER BY albums DESC, \(column) LIMIT \(top)
                """)
            // A name stored as a number by another program still counts, as its text.
            return try statement.map(sql.arguments.bindings) { row in
                Entry(name: try row[0, as: String?.self] ?? "", albums: try row[1, as: Int.self])
            }
        }
        let decades = try connection.cachedStatement("""
            SELECT year / 10 * 10 AS decade, count(*) FROM albums \(sql.whereClause(and: "typeof(year) = 'integer'"))
            GROUP BY decade ORDER BY decade
            """)
        return AlbumStats(
            albums: albums, artists: artists, genres: genres, topGenres: try mostFrequent("genre"), topArtists: try mostFrequent("artist"),
            decades: try decades.map(sql.arguments.bindings) { row in Decade(decade: try row[0, as: Int.self], albums: try row[1, as: Int.self]) },
            withoutYear: withoutYear)
    }
}

extension AlbumRepository {
    /// Counts over the albums `query` matches (every album by default).
    /// - Parameter top: How many genres and artists the tops list at most (`AlbumStats.topCount`
    ///   by default).
    /// - Throws: `QueryError`, `StorageError`; `AlbumError.invalid` for a `top` below 1.
    public func stats(matching query: AlbumQuery = .all, top: Int = AlbumStats.topCount) throws -> AlbumStats {
        guard top >= 1 else { throw AlbumError.invalid(field: "top", reason: "\(top) is not at least 1") }
        let sql = try QuerySQL(query)
        let timeLimit = RegexBudget.limit
        return try library.read { connection in
            try RegexBudget.run(query, limit: timeLimit) { try AlbumStats.read(sql, top: top, in: connection) }
        }
    }
}
