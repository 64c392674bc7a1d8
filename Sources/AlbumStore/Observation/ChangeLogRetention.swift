/// How much of the change log a library keeps for other processes to catch up on: entries past
/// either bound are pruned, and a feed whose cursor is older gets `ChangeFeedError.cursorExpired`.
public struct ChangeLogRetention: Sendable, Equatable {
    public var maxEntries: Int
    public var maxAge: Duration

    public init(maxEntries: Int = 100_000, maxAge: Duration = .seconds(7 * 24 * 3600)) {
        self.maxEntries = maxEntries
        self.maxAge = maxAge
    }
}
