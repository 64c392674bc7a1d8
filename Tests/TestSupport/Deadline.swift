import Foundation
import Synchronization
import Testing

/// How long a wait for an event lasts before the test fails: generous, because on a machine
/// busy with the whole suite a thread or task may get no core for seconds; only a hang takes this
/// long, and a passing test never waits it out.
public let eventTimeout: Double = 10

/// Runs `work` on a thread of its own and waits at most `seconds` for it: a call that would
/// hang (a deadlock) fails the test instead of stalling the suite. The thread of a hung call is
/// left behind; the test has failed by then.
public func withDeadline<T: Sendable>(
    seconds: Double = eventTimeout, sourceLocation: SourceLocation = #_sourceLocation, _ work: @escaping @Sendable () throws -> T
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
public final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    public init(_ value: Value? = nil) { stored = value }

    public var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// `withDeadline` for async work, without blocking a thread while it waits: a test that blocked
/// one of Swift's few cooperative threads could starve the very task it waits for. The task of
/// a hung call is cancelled and left behind.
public func withAsyncDeadline<T: Sendable>(
    seconds: Double = eventTimeout, sourceLocation: SourceLocation = #_sourceLocation, _ work: @escaping @Sendable () async throws -> T
) async throws -> T? {
    let task = Task { () async -> Result<T, Error> in
        do { return .success(try await work()) } catch { return .failure(error) }
    }
    return try await value(of: task, within: seconds, sourceLocation: sourceLocation)?.get()
}

/// Waits at most `seconds` for `task`'s value: a task that would hang (a consumer nobody wakes)
/// fails the test instead of stalling the suite. A late task is cancelled, and left behind if it
/// ignores that; the test has failed by then.
public func value<T: Sendable>(
    of task: Task<T, Never>, within seconds: Double = eventTimeout, sourceLocation: SourceLocation = #_sourceLocation
) async -> T? {
    let first = FirstOutcome<T>()
    let timer = Task {
        try? await Task.sleep(for: .seconds(seconds))
        first.settle(nil)
    }
    let waiter = Task { first.settle(await task.value) }
    let outcome = await first.value
    timer.cancel()
    waiter.cancel()
    guard let outcome else {
        task.cancel()
        Issue.record("did not finish within \(seconds) s", sourceLocation: sourceLocation)
        return nil
    }
    return outcome
}

/// The first of several racing outcomes (a value, or `nil` for a timeout), awaited once.
private final class FirstOutcome<T: Sendable>: Sendable {
    private struct State {
        var outcome: T??
        var waiter: CheckedContinuation<T?, Never>?
    }
    private let state = Mutex(State())

    func settle(_ outcome: T?) {
        let waiter = state.withLock { state -> CheckedContinuation<T?, Never>? in
            guard state.outcome == nil else { return nil }
            state.outcome = .some(outcome)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: outcome)
    }

    var value: T? {
        get async {
            await withCheckedContinuation { continuation in
                let settled = state.withLock { state -> T?? in
                    if state.outcome == nil { state.waiter = continuation }
                    return state.outcome
                }
                if let settled { continuation.resume(returning: settled) }
            }
        }
    }
}
