import Foundation
internal import AlbumSQLite

/// The change sets committed to a library file by any process, read from its change log.
///
/// The feed polls `PRAGMA data_version` (about 2 µs) every `pollInterval` and reads the log only
/// when another connection has committed, so it wakes within one interval of a commit. Each
/// change set carries its `cursor`: start a new feed `since:` it to resume without missing or
/// repeating anything. A cursor older than the kept log throws `ChangeFeedError.cursorExpired`.
public struct ChangeFeed: AsyncSequence, Sendable {
    public let path: String
    /// Resume after this cursor; `nil` starts from the newest entry (only new changes).
    public let since: Int64?
    public let pollInterval: Duration
    /// How long a read waits for another process's lock (rarely needed: in WAL mode reads do
    /// not wait for writers).
    public let busyTimeout: Duration

    public init(
        path: String, since: Int64? = nil, pollInterval: Duration = .milliseconds(10), busyTimeout: Duration = .seconds(5)
    ) {
        self.path = path
        self.since = since
        self.pollInterval = pollInterval
        self.busyTimeout = busyTimeout
    }

    public func makeAsyncIterator() -> Iterator { Iterator(feed: self) }

    public struct Iterator: AsyncIteratorProtocol {
        let feed: ChangeFeed
        private var connection: Connection?
        private var cursor: Int64 = 0
        private var dataVersion: Int64?
        private var pending: [ChangeSet] = []

        init(feed: ChangeFeed) { self.feed = feed }

        /// The next change set; `nil` when the task is cancelled.
        public mutating func next() async throws -> ChangeSet? {
            while pending.isEmpty {
                if Task.isCancelled { return nil }
                try poll()
                if pending.isEmpty {
                    do { try await Task.sleep(for: feed.pollInterval) } catch { return nil }
                }
            }
            return pending.removeFirst()
        }

        /// Everything committed after the cursor, without waiting (for `watch --once`).
        public mutating func backlog() throws -> [ChangeSet] {
            try poll()
            defer { pending.removeAll() }
            return pending
        }

        /// The cursor after the last change set handed out.
        public var position: Int64 { cursor }

        private mutating func poll() throws {
            try mappingStorageErrors(path: feed.path, busyTimeout: feed.busyTimeout) { try readNewEntries() }
        }

        private mutating func readNewEntries() throws {
            let connection = try open()
            let version = try connection.dataVersion()
            guard version != dataVersion else { return }
            dataVersion = version
            pending = try connection.read { try ChangeLog.changeSets(after: cursor, in: connection) }
            if let last = pending.last { cursor = last.cursor }
        }

        private mutating func open() throws -> Connection {
            if let connection { return connection }
            // Opened as a read-only library is: it works on a read-only file or folder, and
            // leaves no WAL files behind (see `OpenPlan`).
            let plan = try LibraryFile.plan(for: feed.path, access: .readOnly)
            let connection = try Connection(path: plan.filename, options: plan.options(busyTimeout: feed.busyTimeout))
            cursor = try feed.since ?? connection.read { try ChangeLog.latestCursor(in: connection) }
            self.connection = connection
            return connection
        }
    }
}
