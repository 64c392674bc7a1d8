internal import AlbumSQLite

/// Fresh planner statistics (`sqlite_stat1`) after a bulk insert that grew the albums by a
/// tenth or more, so that queries keep choosing the right index (without statistics, on a
/// million albums, `genre = ? AND year BETWEEN ? AND ? ORDER BY year LIMIT 50` was measured at
/// about 50 ms against 0.1-1 ms with them).
///
/// It follows inserts without triggers of its own: the bulk insert's catch-up is simply the
/// moment the table has grown. `analysis_limit` keeps it to a sample of each index (about
/// 25 ms on 1,000,000 albums, where a full ANALYZE takes ten times as long).
struct PlannerStatistics: InsertFollower {
    let table = "albums"
    let insertTriggers: [String] = []

    /// Rows to look at per index.
    static let analysisLimit = 1000

    func catchUp(inserted ids: RowIDs, in connection: Connection) throws {
        let total = try connection.scalar("SELECT count(*) FROM albums", as: Int.self) ?? 0
        guard ids.count >= 1000, ids.count * 10 >= total else { return }
        let previous = try connection.scalar("PRAGMA analysis_limit", as: Int.self) ?? 0
        try connection.execute("PRAGMA analysis_limit = \(Self.analysisLimit)")
        defer { try? connection.execute("PRAGMA analysis_limit = \(previous)") }
        try connection.execute("ANALYZE albums")
    }
}
