import AlbumStore

extension QueryTerms {
    /// The ids of the albums the terms match, in list order; `nil` (every album) without terms,
    /// so `covers fetch` need not list the whole library first.
    /// - Throws: `ExitCode(2)` after printing where the query does not parse.
    func albumIDs(in library: Library) throws -> [Int64]? {
        let query = try query()
        if query.matchesEverything { return nil }
        var ids: [Int64] = []
        try library.albums.forEach(matching: query) { _, album in ids.append(album.id) }
        return ids
    }
}
