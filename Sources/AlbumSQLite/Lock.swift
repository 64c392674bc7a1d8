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
        pthread_cond_init(condition, nil)
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
    /// Wakes one thread in `wait()`.
    public func signal() { pthread_cond_signal(condition) }
    /// Wakes every waiting thread.
    public func broadcast() { pthread_cond_broadcast(condition) }
}
