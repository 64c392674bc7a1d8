import Synchronization

/// The change sets committed to a library's file, one per transaction, in commit order: by this
/// `Library`, by other `Library` instances on the same file, and by other processes.
///
/// Subscribing happens when the stream is made (`library.changes`): it gets every change set
/// committed after that and none committed before. The library's own commits arrive as soon as
/// they commit; those of other connections within a few milliseconds, as the library watches
/// its file while anyone subscribes (as `ChangeFeed` does).
///
/// Several tasks may iterate one stream: each change set then goes to one of them (the one that
/// has waited longest). For every consumer to see every change set, give each its own
/// `library.changes`. Iteration returns `nil` for a consumer whose task is cancelled (the others
/// go on), and for every consumer once the library is released. A stream nobody holds
/// any more is gone from the library's subscribers, so no change set can reach a dead observer.
///
/// A writer never waits for a subscriber: each has a buffer of `capacity` change sets, and when
/// a slow subscriber lets it fill, its pending sets are replaced by one set with `isOverflow`
/// set, meaning "changes were lost: reload everything".
public struct ChangeStream: AsyncSequence, Sendable {
    let subscription: Subscription

    /// An iterator over the stream's change sets; several may share one stream (see above).
    public func makeAsyncIterator() -> Iterator { Iterator(subscription: subscription) }

    /// Takes the stream's change sets in commit order.
    public struct Iterator: AsyncIteratorProtocol {
        let subscription: Subscription

        /// The next change set, waiting for one; `nil` once the stream has ended.
        public mutating func next() async -> ChangeSet? { await subscription.next() }

        /// Takes the change sets already waiting, without suspending (for coalescing).
        mutating func drain() -> [ChangeSet] { subscription.drain() }
    }
}

/// One subscriber's buffer and waiting consumers.
final class Subscription: Sendable {
    private struct State {
        var buffer: [ChangeSet] = []
        /// Consumers waiting for a change set, the longest waiting first (the buffer is empty then),
        /// each with a number of its own so that a cancelled one can be taken out alone.
        var waiters: [(number: Int, continuation: CheckedContinuation<ChangeSet?, Never>)] = []
        var nextNumber = 0
        var isFinished = false
    }

    private let state = Mutex(State())
    let capacity: Int
    /// The change log position the subscription starts after: sets up to it were committed
    /// before it was made.
    let start: Int64

    init(capacity: Int, after start: Int64) {
        self.capacity = capacity
        self.start = start
    }

    var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Hands `set` to the consumer that has waited longest or buffers it; never blocks.
    func deliver(_ set: ChangeSet) {
        guard set.cursor > start else { return }
        let waiter = state.withLock { state -> CheckedContinuation<ChangeSet?, Never>? in
            if state.isFinished { return nil }
            if !state.waiters.isEmpty { return state.waiters.removeFirst().continuation }
            state.buffer.append(set)
            if state.buffer.count > capacity, let last = state.buffer.last {
                state.buffer = [ChangeSet(cursor: last.cursor, transaction: last.transaction, date: last.date,
                                          tables: [:], isOverflow: true)]
            }
            return nil
        }
        waiter?.resume(returning: set)
    }

    /// The next change set for this consumer; `nil` once the stream has ended or the consuming
    /// task is cancelled (which ends only that consumer: others sharing the stream go on).
    func next() async -> ChangeSet? {
        let number = state.withLock { state in
            defer { state.nextNumber += 1 }
            return state.nextNumber
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: ChangeSet?? = state.withLock { state in
                    if !state.buffer.isEmpty { return .some(state.buffer.removeFirst()) }
                    // Checked under the lock that `onCancel` takes: a cancellation either finds
                    // the waiter there, or is seen here.
                    if state.isFinished || Task.isCancelled { return .some(nil) }
                    state.waiters.append((number, continuation))
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.number == number }.map { state.waiters.remove(at: $0).continuation }
            }
            waiter?.resume(returning: nil)
        }
    }

    func drain() -> [ChangeSet] {
        state.withLock { state in
            defer { state.buffer.removeAll() }
            return state.buffer
        }
    }

    /// Ends the stream: every waiting consumer gets `nil`, later deliveries are dropped.
    func finish() {
        let waiters = state.withLock { state in
            state.isFinished = true
            state.buffer.removeAll()
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
    }
}
