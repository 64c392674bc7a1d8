/// The time a `RequestPacer` keeps requests apart by: the system's, or a test's that moves only
/// when slept on (so that tests of the pacing do not wait).
protocol PacingClock: Sendable {
    /// The time since some fixed start.
    var now: Duration { get }
    func sleep(for duration: Duration) async throws
}

struct SystemPacingClock: PacingClock {
    private let start = ContinuousClock.now
    var now: Duration { ContinuousClock.now - start }
    func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}

/// Keeps requests at least `interval` apart: from the end of one (its answer in) to the start of
/// the next, so that no two reach the server closer than that, however the network delays them.
struct RequestPacer {
    let interval: Duration
    let clock: any PacingClock
    private var lastEnd: Duration?

    init(interval: Duration, clock: any PacingClock) {
        self.interval = interval
        self.clock = clock
    }

    /// Waits until the next request may start.
    func next() async throws {
        guard let lastEnd else { return }
        let wait = lastEnd + interval - clock.now
        if wait > .zero { try await clock.sleep(for: wait) }
    }

    /// Notes that a request has ended (answered or failed).
    mutating func ended() { lastEnd = clock.now }
}
