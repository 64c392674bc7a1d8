internal import AlbumSQLite

/// Reading the albums a query matches (`AlbumQuery`), in a chosen order (`AlbumSort`).
///
/// Each read is one read transaction on a reader connection (a snapshot of committed data that
/// never waits for a writer). A result's index is its 0-based place among the results, counting
/// `offset`: a query has no use for the albums' places in the whole list. A query with regular
/// expressions runs them for at most ten seconds in all (`RegexBudget`), then fails with
/// `QueryError`.
extension AlbumRepository {
    /// The albums `query` matches in `sort` order, from the `offset`-th result on, up to `limit`.
    /// - Throws: `QueryError` for a condition on a field it does not apply to, or regular
    ///   expressions that take longer than ten seconds over the albums; `StorageError`.
    public func albums(
        matching query: AlbumQuery, sortedBy sort: AlbumSort = .listOrder, offset: Int = 0, limit: Int = .max
    ) throws -> [Album] {
        let select = try Self.select(query, sort: sort, cache: library.queries)
        let timeLimit = RegexBudget.limit
        return try readStatement { connection in
            try RegexBudget.run(query, limit: timeLimit) {
                var albums: [Album] = []
                try Self.rows(select, offset: offset, limit: limit, in: connection) { _, row in albums.append(try Album(row: row)) }
                return albums
            }
        }
    }

    /// The albums `query` matches, without blocking Swift's cooperative threads.
    public func albums(
        matching query: AlbumQuery, sortedBy sort: AlbumSort = .listOrder, offset: Int = 0, limit: Int = .max
    ) async throws -> [Album] {
        let select = try Self.select(query, sort: sort, cache: library.queries)
        let timeLimit = RegexBudget.limit
        return try await library.read { connection in
            try RegexBudget.run(query, limit: timeLimit) {
                var albums: [Album] = []
                try Self.rows(select, offset: offset, limit: limit, in: connection) { _, row in albums.append(try Album(row: row)) }
                return albums
            }
        }
    }

    /// How many albums `query` matches.
    public func count(matching query: AlbumQuery) throws -> Int {
        let sql = try QuerySQL(query)
        let timeLimit = RegexBudget.limit
        return try readStatement { connection in
            try RegexBudget.run(query, limit: timeLimit) {
                let statement = try connection.cachedStatement("SELECT count(*) FROM albums \(sql.whereClause)")
                return try statement.first(sql.arguments.bindings) { row in try row[0, as: Int.self] } ?? 0
            }
        }
    }

    /// Calls `body` with each album `query` matches, in `sort` order, as it is read (memory does
    /// not grow with the results), with its index among the results.
    public func forEach(
        matching query: AlbumQuery, sortedBy sort: AlbumSort = .listOrder, offset: Int = 0, limit: Int = .max,
        _ body: (_ index: Int, _ album: Album) throws -> Void
    ) throws {
        try forEachRow(matching: query, sortedBy: sort, offset: offset, limit: limit) { index, row in
            try body(index, try Album(row: row))
        }
    }

    /// Lends `body` each row (`Album.columns`) `query` matches, in `sort` order, with its index
    /// among the results; one read transaction.
    func forEachRow(
        matching query: AlbumQuery, sortedBy sort: AlbumSort, offset: Int, limit: Int,
        _ body: (Int, borrowing Row) throws -> Void
    ) throws {
        let select = try Self.select(query, sort: sort, cache: library.queries)
        let timeLimit = RegexBudget.limit
        try library.read { connection in
            try RegexBudget.run(query, limit: timeLimit) {
                try Self.rows(select, offset: offset, limit: limit, in: connection, body)
            }
        }
    }

    /// Runs `body`, one statement with no callback into the caller, on a reader without a
    /// transaction around it: the statement reads one snapshot anyway. (`forEach` and `write`
    /// keep theirs: their callbacks may read the library on the same connection meanwhile.)
    private func readStatement<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        try library.readStatement(body)
    }

    /// The SQL of the albums query, without its LIMIT and OFFSET values.
    static func select(_ query: AlbumQuery, sort: AlbumSort, cache: QueryCache = QueryCache()) throws(QueryError) -> QuerySQL.Select {
        try cache.select(query, sort: sort)
    }

    /// Lends `body` each row of `select` (`Album.columns`) with its index among the results.
    private static func rows(
        _ select: QuerySQL.Select, offset: Int, limit: Int, in connection: Connection, _ body: (Int, borrowing Row) throws -> Void
    ) throws {
        let offset = max(0, offset), limit = max(0, limit)
        guard limit > 0 else { return }
        let (sql, arguments) = select.statement(offset: offset, limit: limit)
        // Cached: the same query shape (`artist:x year:a..b`) runs again with other values.
        let statement = try connection.cachedStatement(sql)
        var index = offset
        try statement.forEach(arguments.bindings) { row in
            try body(index, row)
            index += 1
        }
    }
}

extension QuerySQL {
    /// A whole statement and its arguments, with every result or a page of them.
    struct Select: Sendable {
        /// The conditions (`WHERE ...`, or empty) and the order (`ORDER BY ...`).
        let whereClause: String
        let orderClause: String
        let arguments: [SQLiteValue]
        /// Every result. Without a LIMIT SQLite sorts the rows as they come; with one, even a
        /// limit of them all, it keeps them in a b-tree of its own to drop the rows past the
        /// limit early, which costs a command a page cache of its own (20 pages at once).
        let sql: String

        init(whereClause: String, orderClause: String, arguments: [SQLiteValue]) {
            (self.whereClause, self.orderClause, self.arguments) = (whereClause, orderClause, arguments)
            sql = "SELECT \(Album.columns) FROM albums \(whereClause) \(orderClause)"
        }

        /// The SQL and arguments for the results from the `offset`-th, up to `limit` (`.max`: all).
        ///
        /// A page picks its ids first: that reads only the columns of the conditions and the
        /// order, which an index often holds (albums_genre has genre, year and position), so the
        /// matches outside the page are never read from the table. The limit is a number in the
        /// SQL, not a parameter: the planner weighs sorting only a page's rows for a limit it can
        /// read, and without one takes the year index and the table over albums_genre alone for
        /// `genre:jazz year:1970..1979` (six times as slow on a million albums).
        func statement(offset: Int, limit: Int) -> (sql: String, arguments: [SQLiteValue]) {
            if offset == 0 && limit == .max { return (sql, arguments) }
            let ids = "SELECT id FROM albums \(whereClause) \(orderClause) LIMIT \(max(0, limit)) OFFSET ?"
            return ("SELECT \(Album.columns) FROM albums WHERE id IN (\(ids)) \(orderClause)", arguments + [.integer(Int64(offset))])
        }
    }
}
