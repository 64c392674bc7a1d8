import FoundationEssentials
import Synchronization
internal import AlbumSQLite

/// A library's subscriptions (`library.changes`) and what feeds them: every change set committed
/// to its file, once each and in cursor order, read from the change log.
///
/// Two ways in, one cursor: the library's writer hands over its own commits as soon as they
/// commit (`publish(from:)`), and a watch of the file's other committers (another `Library` on
/// it, another process) reads what they commit. The watch is a `CommitWatch`, as a `ChangeFeed`
/// looks: the first subscription starts it, and it stops at its next look after the last one
/// has ended or gone. An in-memory library has no other committers and no watch.
///
/// Subscriptions are held weakly: one nobody holds is gone, so no change set can reach a dead
/// observer. Nothing here holds the library, whose release ends every stream (`finishAll`).
final class ChangeHub: Sendable {
    private struct Weak: @unchecked Sendable {
        // Sendable: Subscription is Sendable; `weak` only needs the wrapper.
        weak var subscription: Subscription?
    }

    private struct State {
        var subscribers: [Weak] = []
        /// The change log position up to which change sets have gone to subscribers.
        var delivered: Int64 = 0
        var watch: Task<Void, Never>?
        var hasEnded = false

        /// The subscribers still held and not finished, forgetting the others.
        mutating func live() -> [Subscription] {
            subscribers.removeAll { $0.subscription?.isFinished ?? true }
            return subscribers.compactMap(\.subscription)
        }
    }

    /// How often the watch looks while commits come (as a `ChangeFeed` does by default).
    static let pollInterval = Duration.milliseconds(10)

    private let state = Mutex(State())
    /// The file the watch reads, how it opens it, and how long its reads wait for a lock.
    private typealias WatchedFile = (path: String, plan: OpenPlan, busyTimeout: Duration)
    /// `nil` in memory.
    private let file: WatchedFile?

    /// A hub for the library at `path` (`nil` in memory), which opened it with `plan`.
    init(watching path: String?, openedWith plan: OpenPlan, busyTimeout: Duration) {
        file = path.map { ($0, CommitWatch.plan(beside: plan), busyTimeout) }
    }

    /// A subscription to the change sets committed after `cursor`, the newest when the caller
    /// subscribes (`nil` when it could not be read: after what has been delivered).
    func subscribe(capacity: Int, after cursor: Int64?) -> ChangeStream {
        let subscription = state.withLock { state in
            let subscription = Subscription(capacity: capacity, after: cursor ?? state.delivered)
            if state.hasEnded {
                subscription.finish()
                return subscription
            }
            // Nobody subscribed: what was committed meanwhile is nobody's.
            if state.live().isEmpty { state.delivered = max(state.delivered, subscription.start) }
            state.subscribers.append(Weak(subscription: subscription))
            if let file, state.watch == nil {
                state.watch = Task.detached { [self] in await watch(file) }
            }
            return subscription
        }
        return ChangeStream(subscription: subscription)
    }

    var hasSubscribers: Bool { state.withLock { !$0.live().isEmpty } }

    /// Hands subscribers the change sets committed after the last delivered, read on
    /// `connection` (outside any transaction): the writer's after a commit, or the watch's.
    /// Returns whether there were any.
    @discardableResult
    func publish(from connection: Connection) -> Bool {
        state.withLock { state in
            let subscribers = state.live()
            guard !subscribers.isEmpty else { return false }
            let sets: [ChangeSet]
            do {
                sets = try connection.read { try ChangeLog.changeSets(after: state.delivered, in: connection) }
            } catch ChangeFeedError.cursorExpired {
                // The log was pruned past what subscribers have seen: tell them to reload.
                guard let latest = try? connection.read({ try ChangeLog.latestCursor(in: connection) }) else { return false }
                sets = [ChangeSet(cursor: latest, transaction: 0, date: Date(), tables: [:], isOverflow: true)]
            } catch {
                // Nothing is lost: the next commit or look reads from the same cursor.
                return false
            }
            guard let last = sets.last else { return false }
            state.delivered = last.cursor
            for subscription in subscribers {
                for set in sets { subscription.deliver(set) }
            }
            return true
        }
    }

    /// Ends every stream, and any made later: for the library's release or closing. Returns the
    /// watch's task, cancelled: its connection closes when the task ends.
    @discardableResult
    func finishAll() -> Task<Void, Never>? {
        let (subscribers, watch) = state.withLock { state in
            state.hasEnded = true
            defer {
                state.subscribers.removeAll()
                state.watch = nil
            }
            return (state.live(), state.watch)
        }
        watch?.cancel()
        for subscription in subscribers { subscription.finish() }
        return watch
    }

    /// Reads the commits of the file's other connections while anyone subscribes.
    private func watch(_ file: WatchedFile) async {
        var watch = CommitWatch(path: file.path, plan: file.plan, pollInterval: Self.pollInterval, busyTimeout: file.busyTimeout)
        while isWatched() {
            do {
                if try watch.hasNewCommits(), publish(from: try watch.open()) { watch.noteActivity() }
            } catch {
                // The file cannot be read now: look again later, from the same cursor.
            }
            guard await watch.pause() else { return }
        }
    }

    /// Whether the watch is still wanted; when not, it is forgotten at once, so that the next
    /// subscription starts another.
    private func isWatched() -> Bool {
        state.withLock { state in
            if !state.hasEnded, !state.live().isEmpty { return true }
            state.watch = nil
            return false
        }
    }
}
