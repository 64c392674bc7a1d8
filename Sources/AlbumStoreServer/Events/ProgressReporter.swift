import Synchronization

/// Tells a job's progress to the hub, at most ten times a second (and always its end).
final class ProgressReporter: Sendable {
    private let hub: EventHub
    private let job: JobProgress.Job
    private let lastReport = Mutex<ContinuousClock.Instant?>(nil)

    init(hub: EventHub, job: JobProgress.Job) {
        self.hub = hub
        self.job = job
    }

    func report(done: Int, total: Int?, rows: Int?) {
        let now = ContinuousClock.now
        let isDue = lastReport.withLock { last in
            guard done == total || last.map({ now - $0 >= .milliseconds(100) }) ?? true else { return false }
            last = now
            return true
        }
        if isDue { hub.publish(.progress(JobProgress(job: job, done: done, total: total, rows: rows))) }
    }
}
