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
        /// How often an idle feed looks: with a `FileChangeSignal` to wake it, and without.
        static let idleInterval = (signalled: Duration.seconds(1), polling: Duration.milliseconds(100))
        /// How long a feed woken by a write lets the rest of the commit land before it looks.
        static let settleAfterWrite = Duration.milliseconds(1)

        let feed: ChangeFeed
        private var connection: Connection?
        private var cursor: Int64 = 0
        private var dataVersion: Int64?
        private var pending: [ChangeSet] = []
        /// The database file the connection opened, and its identity then (`nil` in memory).
        private var file: (path: String, identity: FileIdentity)?
        private var signal: FileChangeSignal?
        private var schedule: PollSchedule

        init(feed: ChangeFeed) {
            self.feed = feed
            schedule = PollSchedule(active: feed.pollInterval, idle: Self.idleInterval.polling)
        }

        /// The next change set; `nil` when the task is cancelled.
        /// - Throws: `ChangeFeedError` (see `ChangeFeed`), or `StorageError` when the file cannot be read.
        public mutating func next() async throws -> ChangeSet? {
            while pending.isEmpty {
                if Task.isCancelled { return nil }
                try poll()
                if !pending.isEmpty {
                    schedule.noteActivity()
                    break
                }
                if let signal {
                    guard await signal.wait(upTo: schedule.interval()) else { continue }
                    schedule.noteActivity()
                    // A commit is several writes, and its log frames are written before the log's
                    // index makes them visible: looking a moment later sees it whole, and a burst of
                    // writes (another process's bulk insert) costs at most a look a millisecond.
                    do { try await Task.sleep(for: Swift.min(Self.settleAfterWrite, feed.pollInterval)) } catch { return nil }
                } else {
                    do { try await Task.sleep(for: schedule.interval()) } catch { return nil }
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
            try mappingStorageErrors(path: feed.path, busyTimeout: feed.busyTimeout) {
                try readNewEntries()
                // What was committed before the file went is handed out first.
                if pending.isEmpty { try checkFile() }
            }
        }

        private mutating func readNewEntries() throws {
            let connection = try open()
            let version = try connection.dataVersion()
            guard version != dataVersion else { return }
            dataVersion = version
            pending = try connection.read { try ChangeLog.changeSets(after: cursor, in: connection) }
            if let last = pending.last { cursor = last.cursor }
        }

        /// Throws when the path no longer names the file the connection reads.
        private func checkFile() throws {
            guard let file else { return }
            switch FileIdentity.lookUp(file.path) {
            case .missing: throw ChangeFeedError.fileDeleted(path: feed.path)
            case let .file(identity) where identity != file.identity: throw ChangeFeedError.fileReplaced(path: feed.path)
            case .file, .unknown: return
            }
        }

        private mutating func open() throws -> Connection {
            if let connection { return connection }
            // Opened as a read-only library is: it works on a read-only file or folder, and
            // leaves no WAL files behind (see `OpenPlan`).
            let plan = try LibraryFile.plan(for: feed.path, access: .readOnly)
            let connection = try Connection(path: plan.filename, options: plan.options(busyTimeout: feed.busyTimeout))
            // The file SQLite opened, as an absolute path ("" in memory): `feed.path` may be a URI.
            let filename = try connection.scalar("SELECT file FROM pragma_database_list WHERE name = 'main'", as: String.self) ?? ""
            if !filename.isEmpty, case let .file(identity) = FileIdentity.lookUp(filename) {
                file = (filename, identity)
                signal = FileChangeSignal.watching(databaseAt: filename)
                if signal != nil {
                    schedule = PollSchedule(active: feed.pollInterval, idle: Self.idleInterval.signalled)
                }
            }
            cursor = try connection.read { try startCursor(in: connection) }
            self.connection = connection
            return connection
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
