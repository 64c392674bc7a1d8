import FoundationEssentials

/// How `Library.enrich(matching:options:)` looks albums up and what it may change.
public struct EnrichOptions: Sendable {
    /// MusicBrainz's web service; a local mirror's URL instead is how to go faster than its rule.
    public static let musicBrainz = "https://musicbrainz.org"
    /// The Cover Art Archive.
    public static let coverArtArchive = "https://coverartarchive.org"
    /// Where `contact` points by default: the project's home.
    public static let defaultContact = "https://github.com/albumstore/albumstore"

    /// The MusicBrainz server's base URL (`/ws/2/...` is added).
    public var musicBrainzURL: String
    /// The Cover Art Archive's base URL (`/release/ID/front-500` is added).
    public var coverArtURL: String
    /// Fields whose value may be replaced; every other field is filled only when empty.
    public var overwrite: Set<EnrichField>
    /// Look everything up and return the proposals without changing the library.
    public var dryRun: Bool
    /// The lowest search score (0 to 100) a match may have; lower ones are "not found".
    public var minimumScore: Int
    /// The least time between two requests to MusicBrainz. Its rule is one a second; a shorter
    /// interval is used only with a `musicBrainzURL` other than musicbrainz.org (a mirror).
    public var requestInterval: Duration
    /// What connecting, and each wait for data, may take (a whole answer: four times it).
    public var timeout: Duration
    /// Attempts per request on 503, 429 and timeouts, waiting as Retry-After says or doubling.
    public var attempts: Int
    /// The URL or e-mail address the User-Agent names, as MusicBrainz asks of every client.
    public var contact: String
    /// The largest cover taken, in bytes.
    public var coverSizeLimit: Int
    /// Called, from any thread, before the first request and after each album.
    public var progress: (@Sendable (EnrichProgress) -> Void)?
    /// What the pacing waits with: the system's clock, or a test's.
    var clock: any PacingClock = SystemPacingClock()

    public init(
        musicBrainzURL: String = musicBrainz, coverArtURL: String = coverArtArchive, overwrite: Set<EnrichField> = [],
        dryRun: Bool = false, minimumScore: Int = 90, requestInterval: Duration = .seconds(1),
        timeout: Duration = .seconds(30), attempts: Int = 4, contact: String = defaultContact,
        coverSizeLimit: Int = 5_000_000, progress: (@Sendable (EnrichProgress) -> Void)? = nil
    ) {
        self.musicBrainzURL = musicBrainzURL
        self.coverArtURL = coverArtURL
        self.overwrite = overwrite
        self.dryRun = dryRun
        self.minimumScore = minimumScore
        self.requestInterval = requestInterval
        self.timeout = timeout
        self.attempts = max(1, attempts)
        self.contact = contact
        self.coverSizeLimit = coverSizeLimit
        self.progress = progress
    }

    /// The User-Agent of every request: the program, its version and how to reach its user.
    var userAgent: String { "albumstore/\(Library.version) ( \(contact) )" }

    /// The interval actually kept: never under a second against musicbrainz.org itself.
    var effectiveInterval: Duration {
        let host = URL(string: musicBrainzURL)?.host?.lowercased() ?? ""
        let isPublic = host == "musicbrainz.org" || host.hasSuffix(".musicbrainz.org")
        return isPublic ? max(requestInterval, .seconds(1)) : max(requestInterval, .zero)
    }
}

/// How far an enrichment is.
public struct EnrichProgress: Sendable, Hashable {
    /// Albums looked up so far, and in all.
    public var albumsDone: Int
    public var albumsTotal: Int
    /// Requests sent to MusicBrainz so far.
    public var requests: Int
    /// What the rest should take at the paced rate: the requests still to send times the interval.
    public var remaining: Duration
}
