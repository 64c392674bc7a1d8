/// How long a change feed waits before it looks at its file again: `active` while changes
/// come, `idle` once nothing has happened for `quietAfter`.
///
/// Why back off: a look is cheap (`PRAGMA data_version`, about 2 µs) but waking the process is
/// not: looking every 10 ms, an idle release-built `albumstore watch` used 1.75% of a core here
/// (about 3% debug-built). Quiet for a second, a feed looks 10 times a second (0.3%, and a first
/// commit is still seen within 100 ms), or once a second when a `FileChangeSignal` wakes it on
/// every write anyway (nothing measurable); any change (or wake-up) brings it back to `active`,
/// so a burst of commits is seen within `active` of each.
struct PollSchedule {
    let active: Duration
    let idle: Duration
    let quietAfter: Duration
    private var lastActivity: ContinuousClock.Instant

    init(active: Duration, idle: Duration, quietAfter: Duration = .seconds(1), now: ContinuousClock.Instant = .now) {
        self.active = active
        self.idle = max(active, idle)
        self.quietAfter = quietAfter
        lastActivity = now
    }

    /// Something happened: look often again.
    mutating func noteActivity(at now: ContinuousClock.Instant = .now) { lastActivity = now }

    /// Whether nothing has happened for `quietAfter`.
    func isIdle(at now: ContinuousClock.Instant = .now) -> Bool { now - lastActivity >= quietAfter }

    /// How long to wait before the next look.
    func interval(at now: ContinuousClock.Instant = .now) -> Duration {
        isIdle(at: now) ? idle : active
    }
}
