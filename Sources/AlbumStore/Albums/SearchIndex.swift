internal import AlbumSQLite

/// The full-text index of titles and artists (`album_search`, migration 0007) as a follower of
/// bulk inserts: while an import or a bulk append runs with its insert trigger aside, the new
/// rows are indexed in bulk at the end.
///
/// Small batches go in by one `INSERT … SELECT` per range of new ids. When the new rows are
/// most of the table (a first import), `'rebuild'` indexes the whole table instead: measured
/// here on 1,000,000 albums, 1.65 s against 2.07 s for inserting them all (100,000 new rows
/// into 900,000: 0.2 s).
struct SearchIndex: InsertFollower {
    let table = "albums"
    let insertTriggers = ["album_search_insert"]

    /// From this share of the table, new rows make a rebuild the cheaper.
    static let rebuildShare = 0.8

    func catchUp(inserted ids: RowIDs, in connection: Connection) throws {
        // A file migrated by a test (or an older binary's migrations) may have no index to keep.
        guard try connection.scalar("SELECT 1 FROM sqlite_schema WHERE name = 'album_search'", as: Int.self) != nil else { return }
        let total = try connection.scalar("SELECT count(*) FROM albums", as: Int.self) ?? 0
        if Double(ids.count) >= Self.rebuildShare * Double(total) {
            try connection.execute("INSERT INTO album_search (album_search) VALUES ('rebuild')")
            return
        }
        for range in ids.ranges {
            try connection.run("""
                INSERT INTO album_search (rowid, title, artist)
                SELECT id, title, artist FROM albums WHERE id BETWEEN ? AND ?
                """, range.lowerBound, range.upperBound)
        }
    }
}
