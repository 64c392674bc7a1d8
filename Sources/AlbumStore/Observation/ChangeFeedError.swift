/// Why a change feed cannot go on.
public enum ChangeFeedError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Entries after `cursor` were pruned: the consumer must reload everything and start again
    /// from the current cursor.
    case cursorExpired(cursor: Int64, oldest: Int64)
    /// The feed was asked to resume after a cursor the log has not reached: most likely one
    /// saved from another library file, or from this path before the file was recreated.
    case cursorAhead(cursor: Int64, newest: Int64)
    /// The library file was deleted while the feed watched it: nothing will ever change in it.
    case fileDeleted(path: String)
    /// Another file took the library file's path (say a restored backup): the feed's connection
    /// still reads the old one, so it would never see a change to the new one.
    case fileReplaced(path: String)

    /// The error in one line, naming the cursor or the file.
    public var description: String {
        switch self {
        case let .cursorExpired(cursor, oldest):
            "cursor expired: resync (changes after \(cursor) were pruned; the log now starts after \(oldest))"
        case let .cursorAhead(cursor, newest):
            "cursor \(cursor) is ahead of the log, whose newest is \(newest)"
        case let .fileDeleted(path):
            "\(path) was deleted"
        case let .fileReplaced(path):
            "\(path) was replaced by another file"
        }
    }
}
