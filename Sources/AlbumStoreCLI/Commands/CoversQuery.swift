import AlbumStore
import ArgumentParser

/// The albums a `covers fetch` or `covers export` query selects.
enum CoversQuery {
    /// The ids of the albums `words` match, in list order; `nil` (every album) without words.
    static func albumIDs(_ words: [String], in library: Library) throws -> [Int64]? {
        guard !words.isEmpty else { return nil }
        throw ValidationError("Query words are not supported by this build yet: run without QUERY for every album.")
    }
}
