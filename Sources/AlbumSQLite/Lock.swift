#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutual-exclusion lock over `pthread_mutex_t`, with a condition to wait on under it.
///
/// Ours rather than Foundation's `NSLock`/`NSCondition` so that the library needs only
/// FoundationEssentials: a binary that links Foundation's full module starts slower (see
/// `scripts/release-build`). `Mutex` from Synchronization cannot serve where a lock must be held
/// across a caller's closure that is handed a non-`Sendable` value.
///
/// `@unchecked Sendable`: the pthread objects live at fixed heap addresses, made once, and are
/// only touched through pthread calls, which are thread-safe.
public final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        #if canImport(Darwin)
        pthread_cond_init(condition, nil)
        #else
        // Timed waits measure on the monotonic clock: a change of the wall clock neither
        // cuts them short nor stretches them.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Releases the lock until `signal()` wakes this thread, then takes it
    /// again. Call with the lock held, in a loop over the condition waited for (wake-ups can be
    /// spurious).
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// `wait()` that gives up at `deadline`: returns `false` once it has passed. A wake-up can
    /// come with the timeout, so check the condition waited for again before giving up.
    public func wait(until deadline: ContinuousClock.Instant) -> Bool {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return false }
        let (seconds, attoseconds) = remaining.components
        #if canImport(Darwin)
        var relative = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        pthread_cond_timedwait_relative_np(condition, mutex, &relative)
        #else
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        let nanoseconds = Int(time.tv_nsec) + Int(attoseconds / 1_000_000_000)
        time.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        time.tv_nsec = nanoseconds % 1_000_000_000
        pthread_cond_timedwait(condition, mutex, &time)
        #endif
        return ContinuousClock.now < deadline
    }
    /// Wakes one thread in `wait()`.
    public func signal() { pthread_cond_signal(condition) }
    /// Wakes every waiting thread.
    public func broadcast() { pthread_cond_broadcast(condition) }
}
