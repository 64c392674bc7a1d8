import Foundation
internal import AlbumSQLite

/// Finds the album an imported row repeats: in the library, or earlier in the same file.
///
/// The same album: the same external id; else the same match key (folded artist and title),
/// confirmed by comparing the folded texts (a 64-bit hash may collide), with years equal or
/// either missing, and not two different external ids (two releases of one album).
///
/// Probing the library costs an index lookup a row, so it is skipped where the answer is
/// known: when the library was empty as the import began, only an earlier row of the file can
/// match, and the in-memory sets of the keys and external-id hashes seen so far (8 bytes each,
/// some 16 MB per million rows) say when to look. The rows of the file written so far are in
/// the table (the import's own transaction), so confirming a candidate is the same lookup.
struct DuplicateFinder {
    /// Whether the library held no album when the import began.
    let libraryWasEmpty: Bool
    private var matchKeys = KeySet()
    private var externalIDs = KeySet()

    /// A stored album the row repeats.
    struct Match {
        var album: Album
        /// Whether the album came from an earlier row of this file.
        var withinFile: Bool
    }

    init(libraryWasEmpty: Bool) {
        self.libraryWasEmpty = libraryWasEmpty
    }

    /// What the finder needs to know of a row, worked out once.
    struct Keys {
        var matchKey: Int64
        var externalIDHash: Int64?
        var seenKey: Bool
        var seenExternalID: Bool
        /// Whether the library must be asked (else the row is surely new).
        var needsProbe: Bool
        /// Whether an earlier row of the file may be the one: rows not yet written must be.
        var mayRepeatFile: Bool
    }

    func keys(of draft: AlbumDraft, matchKey: Int64) -> Keys {
        let externalIDHash = draft.externalID.map { MatchKey.hash($0.utf8) }
        let seenKey = matchKeys.contains(matchKey)
        let seenExternalID = externalIDHash.map { externalIDs.contains($0) } ?? false
        return Keys(
            matchKey: matchKey, externalIDHash: externalIDHash, seenKey: seenKey, seenExternalID: seenExternalID,
            needsProbe: !libraryWasEmpty || seenKey || seenExternalID, mayRepeatFile: seenKey || seenExternalID)
    }

    /// Remembers a row's keys for the rows after it.
    mutating func remember(_ keys: Keys) {
        matchKeys.insert(keys.matchKey)
        if let hash = keys.externalIDHash { externalIDs.insert(hash) }
    }

    /// Remembers a key an update gave an album (its title or artist changed).
    mutating func remember(matchKey: Int64) { matchKeys.insert(matchKey) }

    /// The stored album `draft` repeats, if any. `insertedByImport` tells an album added by this
    /// import from one that was there.
    func match(_ draft: AlbumDraft, keys: Keys, in connection: Connection, insertedByImport: (Album.ID) -> Bool) throws -> Match? {
        guard keys.needsProbe else { return nil }
        if let externalID = draft.externalID, !libraryWasEmpty || keys.seenExternalID,
           let album = try connection.first(
            "SELECT \(Album.columns) FROM albums WHERE external_id = ?", externalID, as: { try Album(row: $0) }) {
            return Match(album: album, withinFile: insertedByImport(album.id) || keys.seenExternalID)
        }
        guard !libraryWasEmpty || keys.seenKey else { return nil }
        let candidates = try connection.query(
            "SELECT \(Album.columns) FROM albums WHERE match_key = ? ORDER BY id", keys.matchKey, as: { try Album(row: $0) })
        guard !candidates.isEmpty else { return nil }
        let artist = FoldedText.fold(draft.artist), title = FoldedText.fold(draft.title)
        for album in candidates where Self.isSame(draft, artist: artist, title: title, as: album) {
            return Match(album: album, withinFile: insertedByImport(album.id) || keys.seenKey)
        }
        return nil
    }

    static func isSame(_ draft: AlbumDraft, artist: String, title: String, as album: Album) -> Bool {
        if let year = draft.year, let stored = album.year, year != stored { return false }
        if let externalID = draft.externalID, let stored = album.externalID, externalID != stored { return false }
        return FoldedText.fold(album.artist) == artist && FoldedText.fold(album.title) == title
    }
}
