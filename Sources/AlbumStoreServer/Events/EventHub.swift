import AlbumStore
import ServiceLifecycle
import Synchronization

/// Hands every event to every open `/api/events` stream: the library's committed change sets
/// (by any process) and the long jobs' progress, with a keep-alive comment every 15 s so that a
/// stream whose browser went away is noticed and ended. A service of the server, which runs it
/// while it serves.
final class EventHub: Service, Sendable {
    private let library: Library
    private let subscribers = Mutex<[Int: AsyncStream<ServerEvent>.Continuation]>([:])
    private let nextID = Atomic<Int>(0)
    static let keepAliveInterval: Duration = .seconds(15)

    init(library: Library) {
        self.library = library
    }

    /// A stream of the events from now on, ending when the server stops.
    func subscribe() -> AsyncStream<ServerEvent> {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream.makeStream(of: ServerEvent.self, bufferingPolicy: .bufferingNewest(1024))
        continuation.onTermination = { [weak self] _ in _ = self?.subscribers.withLock { $0.removeValue(forKey: id) } }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    func publish(_ event: ServerEvent) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(event) }
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
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.finish() }
    }
}
