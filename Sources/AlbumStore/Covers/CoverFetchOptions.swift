/// How `CoverRepository.fetchMissing` downloads.
public struct CoverFetchOptions: Sendable, Hashable {
    /// How many downloads run at once (at least 1).
    public var concurrency: Int
    /// How long one attempt may wait to connect, or for data, before it counts as timed out;
    /// a whole transfer gets four times it.
    public var timeout: Duration
    /// How many attempts a URL gets when it times out or answers 5xx (at least 1).
    public var attempts: Int
    /// The wait before the first retry; it doubles for each further one.
    public var backoff: Duration
    /// The size cap in bytes, enforced while the bytes arrive.
    public var sizeLimit: Int

    /// Options with these values; `concurrency` and `attempts` below 1 count as 1.
    public init(
        concurrency: Int = 8, timeout: Duration = .seconds(30), attempts: Int = 3, backoff: Duration = .milliseconds(500),
        sizeLimit: Int = CoverRepository.defaultSizeLimit
    ) {
        self.concurrency = max(1, concurrency)
        self.timeout = timeout
        self.attempts = max(1, attempts)
        self.backoff = backoff
        self.sizeLimit = sizeLimit
    }
}
