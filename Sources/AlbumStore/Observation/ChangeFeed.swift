import FoundationEssentials
internal import AlbumSQLite

/// The change sets committed to a library file by any process, read from its change log.
///
/// The feed looks at `PRAGMA data_version` (about 2 µs) and reads the log only when another
/// connection has committed. While changes come it looks every `pollInterval`; after a second
/// without any it backs off (`PollSchedule`): on Linux it then sleeps until a file of the
/// library is written (inotify, `FileChangeSignal`), looking once a second regardless; elsewhere
/// it looks every 100 ms. An idle feed so costs next to nothing (nothing measurable with inotify,
/// 0.3% of a core polling), and a commit is seen within a few `pollInterval`s (within 100 ms
/// after a quiet spell without inotify).
///
/// Each change set carries its `cursor`: start a new feed `since:` it to resume without missing
/// or repeating anything. A cursor older than the kept log throws
/// `ChangeFeedError.cursorExpired`, one the log has not reached `.cursorAhead`. When the file is
/// deleted or replaced by another (compared by device and inode at every look), the feed throws
/// `.fileDeleted` or `.fileReplaced`, after handing out what was committed before.
public struct ChangeFeed: AsyncSequence, Sendable {
    /// The library file the feed reads.
    public let path: String
    /// Resume after this cursor; `nil` starts from the newest entry (only new changes). A
    /// negative cursor counts change sets back from the newest: `-1` gives the newest change set
    /// first, `-10` the last ten (all that the log keeps, when it keeps fewer).
    public let since: Int64?
    /// How often the feed looks while changes come.
    public let pollInterval: Duration
    /// How long a read waits for another process's lock (rarely needed: in WAL mode reads do
    /// not wait for writers).
    public let busyTimeout: Duration
    /// Whether the library that made the feed has gone or was closed: the feed then ends.
    var libraryIsGone: @Sendable () -> Bool = { false }

    /// A feed of the library file at `path`; nothing is opened before the first `next()`.
    ///
    /// - Parameters:
    ///   - path: The library file to read.
    ///   - since: Where to resume: a cursor, a negative count of change sets back, or `nil` for
    ///     only new changes (see `since`).
    ///   - pollInterval: How often the feed looks while changes come (default 10 ms).
    ///   - busyTimeout: How long a read waits for another process's lock (default 5 s).
    public init(
        path: String, since: Int64? = nil, pollInterval: Duration = .milliseconds(10), busyTimeout: Duration = .seconds(5)
    ) {
        self.path = path
        self.since = since
        self.pollInterval = pollInterval
        self.busyTimeout = busyTimeout
    }

    /// An iterator over the feed's change sets, in commit order.
    public func makeAsyncIterator() -> Iterator { Iterator(feed: self) }

    /// Reads a feed's change sets in commit order, keeping its cursor.
    public struct Iterator: AsyncIteratorProtocol {
        let feed: ChangeFeed
        private var watch: CommitWatch
        /// The cursor after the last change set read; `nil` until the watch has opened the file.
        private var cursor: Int64?
        private var pending: [ChangeSet] = []

        init(feed: ChangeFeed) {
            self.feed = feed
            watch = CommitWatch(path: feed.path, pollInterval: feed.pollInterval, busyTimeout: feed.busyTimeout)
        }

        /// The next change set; `nil` when the task is cancelled, or when the `Library` that
        /// made the feed (`Library.changeFeed`) is closed or released (noticed within a second).
        /// - Throws: `ChangeFeedError` (see `ChangeFeed`), or `StorageError` when the file cannot be read.
        public mutating func next() async throws -> ChangeSet? {
            while pending.isEmpty {
                if Task.isCancelled || feed.libraryIsGone() { return nil }
                try poll()
                if !pending.isEmpty {
                    watch.noteActivity()
                    break
                }
                guard await watch.pause() else { return nil }
            }
            return pending.removeFirst()
        }

        /// Everything committed after the cursor, without waiting for more.
        public mutating func backlog() throws -> [ChangeSet] {
            try poll()
            defer { pending.removeAll() }
            return pending
        }

        /// The cursor after the last change set handed out.
        public var position: Int64 { cursor ?? 0 }

        private mutating func poll() throws {
            try mappingStorageErrors(path: feed.path, busyTimeout: feed.busyTimeout) {
                try readNewEntries()
                // What was committed before the file went is handed out first.
                if pending.isEmpty { try watch.checkFile() }
            }
        }

        private mutating func readNewEntries() throws {
            let connection = try watch.open()
            let start = try cursor ?? connection.read { try startCursor(in: connection) }
            cursor = start
            guard try watch.hasNewCommits() else { return }
            pending = try connection.read { try ChangeLog.changeSets(after: start, in: connection) }
            if let last = pending.last { cursor = last.cursor }
        }

        /// The cursor `feed.since` names.
        private func startCursor(in connection: Connection) throws -> Int64 {
            let newest = try ChangeLog.latestCursor(in: connection)
            guard let since = feed.since else { return newest }
            if since > newest { throw ChangeFeedError.cursorAhead(cursor: since, newest: newest) }
            if since >= 0 { return since }
            return try ChangeLog.cursor(changeSetsBack: Int(clamping: since.magnitude), in: connection)
        }
    }
}
