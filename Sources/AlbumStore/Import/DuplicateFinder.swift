import FoundationEssentials
internal import AlbumSQLite

/// Finds the album an imported row repeats: in the library, or earlier in the same file.
///
/// The same album: the same external id; else the same match key (folded artist and title),
/// confirmed by comparing the folded texts (a 64-bit hash may collide), with years equal or
/// either missing, and not two different external ids (two releases of one album).
///
/// Probing the library costs an index lookup a row, so it is skipped where the answer is
/// known: when the filter holds the library's keys too (it was empty, or a large import loaded
/// them), a filter of the keys and external-id hashes seen so far (`KeyFilter`, of a fixed size
/// whatever the file's) says when to look. Its "maybe" can be wrong, never its "no": a wrong
/// "maybe" only costs the lookup, whose answer is exact. The rows of the file written so far
/// are in the table (the import's own transaction), so confirming a candidate is the same
/// lookup.
struct DuplicateFinder {
    /// Whether the filter holds every key the library has (it was empty, or its keys were
    /// loaded): then a key the filter surely lacks is new, and the library need not be asked.
    private(set) var knowsLibrary: Bool
    /// Every match key and external-id hash remembered (the file's rows, and the library's when
    /// loaded): fixed in size, so memory does not grow with the file or the library.
    private var seen: KeyFilter
    /// Exactly, the keys and external-id hashes remembered that no album this import wrote
    /// holds: those of the rows that repeated an album (not written), those an update gave,
    /// and those an album this import wrote had before an update changed them. With the
    /// albums this import wrote, they answer "did an earlier row have this key?" exactly,
    /// where the filter only says maybe. They grow with the repeats only.
    private var repeatedKeys = KeySet(capacity: 16)
    private var repeatedExternalIDs = KeySet(capacity: 16)

    /// A stored album the row repeats.
    struct Match {
        var album: Album
        /// Whether the album came from an earlier row of this file.
        var withinFile: Bool
    }

    init(libraryWasEmpty: Bool, filter: KeyFilter) {
        knowsLibrary = libraryWasEmpty
        seen = filter
    }

    /// External-id hashes go into the filter changed by this (a bijection), so that one equal
    /// to a match key does not answer for it.
    private static func filterKey(externalIDHash hash: Int64) -> Int64 { hash ^ 0x5851_F42D_4C95_7F2D }

    /// Puts the keys of every album in the library into the filter (one pass over the table).
    mutating func loadLibraryKeys(in connection: Connection) throws {
        try connection.cachedStatement("SELECT match_key, external_id FROM albums").forEach { row in
            if let key = try row[0, as: Int64?.self] { seen.insert(key) }
            if let externalID = try row[1, as: String?.self] {
                seen.insert(Self.filterKey(externalIDHash: MatchKey.hash(externalID.utf8)))
            }
        }
        knowsLibrary = true
    }

    /// What the finder needs to know of a row, worked out once.
    struct Keys {
        var matchKey: Int64
        var externalIDHash: Int64?
        /// Whether an earlier row (or the library, when loaded) may have had the match key:
        /// false is sure, true is the filter's maybe.
        var maySeenKey: Bool
        /// The same for the external id.
        var maySeenExternalID: Bool
        /// Whether the library must be asked (else the row is surely new).
        var needsProbe: Bool
        /// Whether an earlier row of the file may be the one: rows not yet written must be.
        var mayRepeatFile: Bool
    }

    /// Works out a row's keys, and remembers them for the rows after it (one visit to the
    /// filter for each).
    mutating func keys(of draft: AlbumDraft, matchKey: Int64) -> Keys {
        let externalIDHash = draft.externalID.map { MatchKey.hash($0.utf8) }
        let maySeenKey = seen.insert(matchKey)
        let maySeenExternalID = externalIDHash.map { seen.insert(Self.filterKey(externalIDHash: $0)) } ?? false
        return Keys(
            matchKey: matchKey, externalIDHash: externalIDHash, maySeenKey: maySeenKey, maySeenExternalID: maySeenExternalID,
            needsProbe: !knowsLibrary || maySeenKey || maySeenExternalID, mayRepeatFile: maySeenKey || maySeenExternalID)
    }

    /// Remembers exactly the keys of a row that repeated an album and was not written.
    mutating func rememberRepeat(_ keys: Keys) {
        repeatedKeys.insert(keys.matchKey)
        if let hash = keys.externalIDHash { repeatedExternalIDs.insert(hash) }
    }

    /// Remembers a key an update gave an album (its title or artist changed).
    mutating func remember(matchKey: Int64) {
        seen.insert(matchKey)
        repeatedKeys.insert(matchKey)
    }

    /// Remembers exactly the keys an album this import wrote had before an update changed them
    /// (the table no longer holds them).
    mutating func rememberReplaced(of album: Album) {
        repeatedKeys.insert(MatchKey.of(artist: album.artist, title: album.title))
        if let externalID = album.externalID { repeatedExternalIDs.insert(MatchKey.hash(externalID.utf8)) }
    }

    /// The stored album `draft` repeats, if any. `insertedByImport` tells an album added by this
    /// import from one that was there.
    ///
    /// `withinFile` is exact: for an album that was there, "an earlier row had the same key" is
    /// the filter's maybe confirmed by the exact sets or by an album this import wrote holding
    /// the key. (An album this import wrote cannot hold the external id of one that was there:
    /// the index on external ids is unique.)
    func match(_ draft: AlbumDraft, keys: Keys, in connection: Connection, insertedByImport: (Album.ID) -> Bool) throws -> Match? {
        guard keys.needsProbe else { return nil }
        if let externalID = draft.externalID, !knowsLibrary || keys.maySeenExternalID,
           let album = try connection.first(
            "SELECT \(Album.columns) FROM albums WHERE external_id = ?", externalID, as: { try Album(row: $0) }) {
            let earlierRow = keys.maySeenExternalID && keys.externalIDHash.map(repeatedExternalIDs.contains) == true
            return Match(album: album, withinFile: insertedByImport(album.id) || earlierRow)
        }
        guard !knowsLibrary || keys.maySeenKey else { return nil }
        let candidates = try connection.query(
            "SELECT \(Album.columns) FROM albums WHERE match_key = ? ORDER BY id", keys.matchKey, as: { try Album(row: $0) })
        guard !candidates.isEmpty else { return nil }
        let artist = FoldedText.fold(draft.artist), title = FoldedText.fold(draft.title)
        for album in candidates where Self.isSame(draft, artist: artist, title: title, as: album) {
            let earlierRow = keys.maySeenKey
                && (repeatedKeys.contains(keys.matchKey) || candidates.contains { insertedByImport($0.id) })
            return Match(album: album, withinFile: insertedByImport(album.id) || earlierRow)
        }
        return nil
    }

    static func isSame(_ draft: AlbumDraft, artist: String, title: String, as album: Album) -> Bool {
        if let year = draft.year, let stored = album.year, year != stored { return false }
        if let externalID = draft.externalID, let stored = album.externalID, externalID != stored { return false }
        return FoldedText.fold(album.artist) == artist && FoldedText.fold(album.title) == title
    }
}
