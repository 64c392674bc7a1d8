import Synchronization

/// The change sets committed through a `Library`, one per transaction, in commit order.
///
/// Subscribing happens when the stream is made (`library.changes`), so nothing committed after
/// that is missed. Several tasks may iterate one stream: each change set then goes to one of them
/// (the one that has waited longest). For every consumer to see every change set, give each its
/// own `library.changes`. The stream ends, iteration returning `nil`, when a consuming task is
/// cancelled (for all of its consumers) and when its library is released. A stream nobody holds
/// any more is gone from the library's subscribers, so no change set can reach a dead observer.
/// A writer never waits for a subscriber: each has a buffer of `capacity` change sets, and when
/// a slow subscriber lets it fill, its pending sets are replaced by one set with `isOverflow`
/// set, meaning "changes were lost: reload everything".
public struct ChangeStream: AsyncSequence, Sendable {
    let subscription: Subscription

    public func makeAsyncIterator() -> Iterator { Iterator(subscription: subscription) }

    public struct Iterator: AsyncIteratorProtocol {
        let subscription: Subscription

        public mutating func next() async -> ChangeSet? { await subscription.next() }

        /// Takes the change sets already waiting, without suspending (for coalescing).
        mutating func drain() -> [ChangeSet] { subscription.drain() }
    }
}

/// One subscriber's buffer and waiting consumers.
final class Subscription: Sendable {
    private struct State {
        var buffer: [ChangeSet] = []
        /// Consumers waiting for a change set, the longest waiting first (the buffer is empty then).
        var waiters: [CheckedContinuation<ChangeSet?, Never>] = []
        var isFinished = false
    }

    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Hands `set` to the consumer that has waited longest or buffers it; never blocks.
    func deliver(_ set: ChangeSet) {
        let waiter = state.withLock { state -> CheckedContinuation<ChangeSet?, Never>? in
            if state.isFinished { return nil }
            if !state.waiters.isEmpty { return state.waiters.removeFirst() }
            state.buffer.append(set)
            if state.buffer.count > capacity, let last = state.buffer.last {
                state.buffer = [ChangeSet(cursor: last.cursor, transaction: last.transaction, date: last.date,
                                          tables: [:], isOverflow: true)]
            }
            return nil
        }
        waiter?.resume(returning: set)
    }

    func next() async -> ChangeSet? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: ChangeSet?? = state.withLock { state in
                    if !state.buffer.isEmpty { return .some(state.buffer.removeFirst()) }
                    if state.isFinished || Task.isCancelled { return .some(nil) }
                    state.waiters.append(continuation)
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            finish()
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
        for waiter in waiters { waiter.resume(returning: nil) }
    }
}

/// The library's subscribers, held weakly: a subscription nobody holds is gone. Nothing here
/// holds the library, whose release ends every stream (`finishAll`).
final class ChangeHub: Sendable {
    private struct Weak: @unchecked Sendable {
        // Sendable: Subscription is Sendable; `weak` only needs the wrapper.
        weak var subscription: Subscription?
    }

    /// `nil` once every stream has been ended (`finishAll`).
    private let subscribers = Mutex<[Weak]?>([])

    func subscribe(capacity: Int) -> ChangeStream {
        let subscription = Subscription(capacity: capacity)
        let isOpen = subscribers.withLock { list in
            list?.append(Weak(subscription: subscription))
            return list != nil
        }
        if !isOpen { subscription.finish() }
        return ChangeStream(subscription: subscription)
    }

    var hasSubscribers: Bool {
        subscribers.withLock { list in
            list?.removeAll { $0.subscription?.isFinished ?? true }
            return !(list?.isEmpty ?? true)
        }
    }

    func publish(_ sets: [ChangeSet]) {
        guard !sets.isEmpty else { return }
        let live = subscribers.withLock { list -> [Subscription] in
            list?.removeAll { $0.subscription?.isFinished ?? true }
            return list?.compactMap(\.subscription) ?? []
        }
        for subscription in live {
            for set in sets { subscription.deliver(set) }
        }
    }

    /// Ends every stream, and any made later: for the library's release or closing.
    func finishAll() {
        let live = subscribers.withLock { list -> [Subscription] in
            defer { list = nil }
            return list?.compactMap(\.subscription) ?? []
        }
        for subscription in live { subscription.finish() }
    }
}
