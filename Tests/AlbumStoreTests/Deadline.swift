import Foundation
import Testing

/// Runs `work` on a thread of its own and waits at most `seconds` for it: a call that would
/// hang (a deadlock) fails the test instead of stalling the suite. The thread of a hung call is
/// left behind; the test has failed by then.
func withDeadline<T: Sendable>(
    seconds: Double = 1, sourceLocation: SourceLocation = #_sourceLocation, _ work: @escaping @Sendable () throws -> T
) throws -> T? {
    let done = DispatchSemaphore(value: 0)
    let result = Box<Result<T, Error>>()
    Thread.detachNewThread {
        result.value = Result(catching: work)
        done.signal()
    }
    guard done.wait(timeout: .now() + seconds) == .success, let value = result.value else {
        Issue.record("did not return within \(seconds) s", sourceLocation: sourceLocation)
        return nil
    }
    return try value.get()
}

/// A value handed between threads under a lock.
final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    init(_ value: Value? = nil) { stored = value }

    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
