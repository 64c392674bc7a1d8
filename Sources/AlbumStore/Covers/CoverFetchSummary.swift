/// What `CoverRepository.fetchMissing` did: one line per album it tried.
public struct CoverFetchSummary: Sendable, Hashable {
    /// A URL that gave no cover, and why.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        /// The album whose cover was not fetched.
        public let albumID: Int64
        /// The album's cover URL, as stored.
        public let url: String
        /// Why no cover came of it, in one line: the download or image error.
        public let reason: String

        /// The failure in one line: `album ID: URL: reason`.
        public var description: String { "album \(albumID): \(url): \(reason)" }
    }

    /// The covers stored, in the order they arrived.
    public var stored: [CoverInfo] = []
    /// The albums whose cover could not be fetched, in list order.
    public var failures: [Failure] = []
    /// Albums without a cover that have no cover URL either.
    public var withoutURL: [Int64] = []
}
