import FoundationEssentials
internal import AlbumSQLite

/// A connection of its own to a library file that notices when another connection, in any
/// process, commits: how a `ChangeFeed` and the library's subscriptions (`ChangeHub`) look.
///
/// `PRAGMA data_version` (about 2 µs) says whether another connection has committed, so the log
/// is read only then. Between looks it waits `pollInterval` while commits come, and backs off
/// after a second without any (`PollSchedule`): on Linux to a wait for a write to the library's
/// files (`FileChangeSignal`), looking once a second regardless; elsewhere to a look every 100 ms.
/// While a long write is under way, it stops listening for writes (see `pause()`).
struct CommitWatch {
    /// How often an idle watch looks: with a `FileChangeSignal` to wake it, and without.
    static let idleInterval = (signalled: Duration.seconds(1), polling: Duration.milliseconds(100))
    /// How long a watch woken by a write lets the rest of the commit land before it looks.
    static let settleAfterWrite = Duration.milliseconds(1)

    let path: String
    /// How to open the file; `nil`: as a read-only library would, after a look at the file.
    let plan: OpenPlan?
    let pollInterval: Duration
    let busyTimeout: Duration
    private var connection: Connection?
    private var dataVersion: Int64?
    /// The database file the connection opened, and its identity then (`nil` in memory).
    private var file: (path: String, identity: FileIdentity)?
    private var signal: FileChangeSignal?
    private var schedule: PollSchedule
    /// Whether the last wait ended with a write to the library's files, and how many looks in a
    /// row have found no commit after such a wait: one for the tail of a commit already seen,
    /// two for a long write under way, whose every page wakes the watch.
    private var wasWoken = false
    private var lookedInVain = 0
    /// Whether the signal stopped listening for writes during a long write.
    private var ignoresWrites = false

    init(path: String, plan: OpenPlan? = nil, pollInterval: Duration, busyTimeout: Duration) {
        self.path = path
        self.plan = plan
        self.pollInterval = pollInterval
        self.busyTimeout = busyTimeout
        schedule = PollSchedule(active: pollInterval, idle: Self.idleInterval.polling)
    }

    /// The watch's connection, opened on first use as `plan` says, or else as a read-only
    /// library is: it works on a read-only file or folder, and leaves no WAL files behind (see
    /// `OpenPlan`).
    mutating func open() throws -> Connection {
        if let connection { return connection }
        let plan = try plan ?? LibraryFile.plan(for: path, access: .readOnly)
        let connection = try Connection(path: plan.filename, options: plan.options(busyTimeout: busyTimeout))
        // The file SQLite opened, as an absolute path ("" in memory): `path` may be a URI.
        let filename = try connection.scalar("SELECT file FROM pragma_database_list WHERE name = 'main'", as: String.self) ?? ""
        if !filename.isEmpty, case let .file(identity) = FileIdentity.lookUp(filename) {
            file = (filename, identity)
            signal = FileChangeSignal.watching(databaseAt: filename)
            if signal != nil { schedule = PollSchedule(active: pollInterval, idle: Self.idleInterval.signalled) }
        }
        self.connection = connection
        return connection
    }

    /// Whether another connection has committed since the last call (always at the first).
    mutating func hasNewCommits() throws -> Bool {
        let version = try open().dataVersion()
        let hasNew = version != dataVersion
        dataVersion = version
        lookedInVain = wasWoken && !hasNew ? lookedInVain + 1 : 0
        wasWoken = false
        if hasNew { listenForWrites() }
        return hasNew
    }

    /// Whether a write to the library's files wakes the watch (on Linux, unless a long write
    /// under way has it ignore them).
    var wakesOnWrites: Bool { signal != nil && !ignoresWrites }

    /// Has the signal wake the watch for writes again, after a long write.
    private mutating func listenForWrites() {
        guard ignoresWrites else { return }
        signal?.listenForWrites(true)
        ignoresWrites = false
    }

    /// Something was found: look often again.
    mutating func noteActivity() { schedule.noteActivity() }

    /// How a watch opens a file that a library of this process has open with `plan`: with the
    /// same name, read-only, and without looking at the file first (as `LibraryFile.plan` does):
    /// closing a descriptor of the file outside SQLite would drop every lock the process holds
    /// on it.
    static func plan(beside plan: OpenPlan) -> OpenPlan {
        OpenPlan(filename: plan.filename, mode: plan.mode == .readWriteCreate ? .readWrite : plan.mode,
                 queryOnly: plan.mode != .readOnly)
    }

    /// Waits until it is time to look again; `false` when the task is cancelled.
    mutating func pause() async -> Bool {
        if Task.isCancelled { return false }
        if lookedInVain >= 2, !ignoresWrites {
            // A long write is under way (a bulk insert, an import, a checkpoint). Every page it
            // writes would cost it a queued event, in the kernel, at each write (about 15% more
            // kernel time for a bulk insert with a subscription of its own): ignore writes, and
            // look every `pollInterval`, as after a wake-up, until a look finds a commit or all
            // is quiet for a second (a rollback). Any commit is still seen within one.
            signal?.listenForWrites(false)
            ignoresWrites = true
        } else if ignoresWrites, schedule.isIdle() {
            listenForWrites()
        }
        guard let signal else {
            do { try await Task.sleep(for: schedule.interval()) } catch { return false }
            return true
        }
        guard await signal.wait(upTo: schedule.interval()) else { return !Task.isCancelled }
        schedule.noteActivity()
        wasWoken = true
        // A commit is several writes, and its log frames are written before the log's index
        // makes them visible: looking a moment later sees it whole. After a look that found
        // nothing, the next comes a `pollInterval` later, not a millisecond: a long write may be
        // under way, in this very process, which must not share its core with looks.
        let settle = lookedInVain > 0 ? pollInterval : min(Self.settleAfterWrite, pollInterval)
        do { try await Task.sleep(for: settle) } catch { return false }
        return true
    }

    /// Throws when the path no longer names the file the connection reads.
    /// - Throws: `ChangeFeedError.fileDeleted` or `.fileReplaced`.
    func checkFile() throws {
        guard let file else { return }
        switch FileIdentity.lookUp(file.path) {
        case .missing: throw ChangeFeedError.fileDeleted(path: path)
        case let .file(identity) where identity != file.identity: throw ChangeFeedError.fileReplaced(path: path)
        case .file, .unknown: return
        }
    }
}
