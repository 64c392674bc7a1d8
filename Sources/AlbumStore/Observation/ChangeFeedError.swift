/// Why a change feed cannot go on.
public enum ChangeFeedError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Entries after `cursor` were pruned: the consumer must reload everything and start again
    /// from the current cursor.
    case cursorExpired(cursor: Int64, oldest: Int64)

    public var description: String {
        switch self {
        case let .cursorExpired(cursor, oldest):
            "cursor expired: resync (changes after \(cursor) were pruned; the log now starts after \(oldest))"
        }
    }
}
