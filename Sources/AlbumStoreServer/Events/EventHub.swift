import AlbumStore
import NIOCore
import ServiceLifecycle
import Synchronization

/// Hands every event to every open `/api/events` stream: the library's committed change sets
/// (by any process) and the long jobs' progress, with a keep-alive comment every 15 s so that a
/// stream whose browser went away is noticed and ended. A service of the server, which runs it
/// while it serves.
///
/// The work per listener is bounded: an event is encoded once for all of them (a large change
/// set as its counts, `ServerEvent.largestChangeSent`), and a listener keeps at most
/// `bufferSize` events waiting; one that falls further behind loses the oldest and is sent
/// `resync` before the next, so that its page reloads rather than miss a change.
final class EventHub: Service, Sendable {
    /// One stream's events, as bytes to send, and whether some were dropped.
    final class Subscription: Sendable {
        let events: AsyncStream<ByteBuffer>
        fileprivate let continuation: AsyncStream<ByteBuffer>.Continuation
        private let lost = Atomic(false)

        fileprivate init() {
            (events, continuation) = AsyncStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .bufferingNewest(EventHub.bufferSize))
        }

        fileprivate func send(_ bytes: ByteBuffer) {
            if case .dropped = continuation.yield(bytes) { lost.store(true, ordering: .relaxed) }
        }

        /// Whether events were dropped since the last call.
        func tookLoss() -> Bool { lost.exchange(false, ordering: .relaxed) }
    }

    private let library: Library
    private let subscribers = Mutex<[Int: Subscription]>([:])
    private let nextID = Atomic<Int>(0)
    static let keepAliveInterval: Duration = .seconds(15)
    /// The events a listener may have waiting.
    static let bufferSize = 64

    init(library: Library) {
        self.library = library
    }

    /// The events from now on, ending when the server stops.
    func subscribe() -> Subscription {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let subscription = Subscription()
        subscription.continuation.onTermination = { [weak self] _ in _ = self?.subscribers.withLock { $0.removeValue(forKey: id) } }
        subscribers.withLock { $0[id] = subscription }
        return subscription
    }

    func publish(_ event: ServerEvent) {
        let listeners = subscribers.withLock { Array($0.values) }
        guard !listeners.isEmpty else { return }
        let bytes = ByteBuffer(string: event.text)
        for listener in listeners { listener.send(bytes) }
    }

    func run() async throws {
        let changes = library.changes
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await set in changes.cancelOnGracefulShutdown() { self.publish(.change(set)) }
            }
            group.addTask {
                while (try? await Task.sleep(for: Self.keepAliveInterval)) != nil {
                    self.publish(.keepAlive)
                }
            }
            try? await gracefulShutdown()
            group.cancelAll()
        }
        for subscription in subscribers.withLock({ Array($0.values) }) { subscription.continuation.finish() }
    }
}
