/// How much of the change log a library keeps for other processes to catch up on: entries past
/// either bound are pruned, and a feed whose cursor is older gets `ChangeFeedError.cursorExpired`.
public struct ChangeLogRetention: Sendable, Equatable {
    /// The most log entries kept (an entry per changed row, or per range of a bulk change).
    public var maxEntries: Int
    /// How long an entry is kept, counted in whole seconds.
    public var maxAge: Duration

    /// Bounds of `maxEntries` entries and `maxAge` (by default 100,000 entries and 7 days).
    public init(maxEntries: Int = 100_000, maxAge: Duration = .seconds(7 * 24 * 3600)) {
        self.maxEntries = maxEntries
        self.maxAge = maxAge
    }
}
