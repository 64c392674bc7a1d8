/// What `Library.enrich(matching:options:)` found and did.
public struct EnrichSummary: Sendable {
    /// An album, as the lists of the summary name it.
    public struct AlbumName: Sendable, Hashable, CustomStringConvertible {
        public let id: Int64
        public let title: String
        public let artist: String
        public var description: String { "#\(id) \(title) — \(artist)" }
    }

    /// An album left as it was, and why.
    public struct Skipped: Sendable, Hashable {
        public let album: AlbumName
        /// "not found", "ambiguous: ..." with the candidates, or the bad answer in one line.
        public let reason: String
    }

    public var dryRun = false
    /// Albums looked up.
    public var albumsLookedUp = 0
    /// Every value found for an empty (or `overwrite`) field, in album order.
    public var proposals: [EnrichProposal] = []
    /// The proposals applied (none for a dry run).
    public var applied: [EnrichProposal] = []
    /// No release scored `minimumScore` or more.
    public var notFound: [AlbumName] = []
    /// Several albums (release groups) scored as high: nothing is guessed.
    public var ambiguous: [Skipped] = []
    /// A bad answer (malformed, wrong type, broken image, too slow, ...): the album is untouched.
    public var failures: [Skipped] = []
    /// Requests sent to MusicBrainz, and to the Cover Art Archive.
    public var musicBrainzRequests = 0
    public var coverRequests = 0
    /// Stopped before the end (cancelled): what was found up to then was applied.
    public var interrupted = false

    public init() {}
}
