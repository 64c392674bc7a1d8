// The in-process half of scripts/stress: a writing `Library` with an observer (`changes`) and a
// change feed, and beside it, on the same file and in the same process, second handles that come
// and go (a read-only `Library`, `Library.check`, `backup`, `info`), while the script's processes
// write and read the file too. Public API only.
//
// Usage: stress-library LIBRARY SECONDS FOLDER
// Prints `ready` once subscribed. For SECONDS it writes pairs of albums (two albums in one
// command: readers must see both or neither) and works the second handles; then it prints `done`,
// reads the final change-log cursor from stdin, waits (up to 30 s) until its observer and its feed have
// seen it, and prints a JSON report on stdout. Exit 1 on any failure of its own.
import AlbumStore
import Foundation
import Synchronization

@main
struct StressLibrary {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 4, let seconds = Int(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: stress-library LIBRARY SECONDS FOLDER\n".utf8))
            exit(2)
        }
        let path = arguments[1], folder = arguments[3]
        let library = try Library.open(atPath: path, configuration: .init(access: .readWrite))
        let report = Report()

        // Both subscribe now: they must see every change set committed from here on.
        let changes = library.changes(bufferSize: 1 << 20)
        let feed = library.changeFeed()
        let observer = Task {
            for await set in changes {
                report.saw(set, by: \.observer)
            }
        }
        let feedTask = Task {
            do {
                for try await set in feed {
                    report.saw(set, by: \.feed)
                }
            } catch {
                report.fail("change feed: \(error)")
            }
        }
        say("ready")

        let deadline = ContinuousClock.now + .seconds(seconds)
        let writer = Worker { writePairs(library, until: deadline, report) }
        let handles = Worker { workSecondHandles(library, path: path, folder: folder, until: deadline, report) }
        writer.wait()
        handles.wait()
        say("done")

        guard let line = readLine(), let final = Int64(line) else {
            report.fail("no final cursor on stdin")
            finish(report)
        }
        let waitLimit = ContinuousClock.now + .seconds(30)
        while report.lastCursors.observer < final || report.lastCursors.feed < final {
            if ContinuousClock.now > waitLimit {
                report.fail("after 30 s, the observer is at \(report.lastCursors.observer) and the feed at "
                    + "\(report.lastCursors.feed), not at the final cursor \(final)")
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        observer.cancel()
        feedTask.cancel()
        library.close()
        finish(report)
    }

    static func finish(_ report: Report) -> Never {
        say(report.json())
        exit(report.hasFailures ? 1 : 0)
    }

    /// A line on stdout at once (the script waits for it), unbuffered.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Two albums in one command, again and again: a reader must never see one without the other.
    static func writePairs(_ library: Library, until deadline: ContinuousClock.Instant, _ report: Report) {
        var number = 0
        while ContinuousClock.now < deadline {
            number += 1
            let pair = number
            do {
                try library.write("pair \(pair)") { library in
                    for side in ["a", "b"] {
                        _ = try library.albums.append(
                            AlbumDraft(title: "Pair \(pair) \(side)", artist: "Stress Pair \(pair)", genre: "pairs"))
                    }
                }
                report.count("pair", .acknowledged)
            } catch let error as StorageError where error.reason == .busy {
                report.count("pair", .busy)
            } catch {
                report.count("pair", .failed)
                report.fail("pair \(pair): \(error)")
            }
        }
    }

    /// A read-only open, a check, a backup and `info` on the file the writing library has open.
    static func workSecondHandles(
        _ library: Library, path: String, folder: String, until deadline: ContinuousClock.Instant, _ report: Report
    ) {
        let backup = URL(fileURLWithPath: folder).appendingPathComponent("stress-backup.sqlite")
        var round = 0
        while ContinuousClock.now < deadline {
            round += 1
            let kind = ["read-only open", "check", "backup", "info"][round % 4]
            do {
                switch kind {
                case "read-only open":
                    let reader = try Library.open(atPath: path, configuration: .init(access: .readOnly))
                    _ = try reader.albums.count()
                    reader.close()
                case "check":
                    let problems = try Library.check(at: URL(fileURLWithPath: path))
                    if !problems.isEmpty { report.fail("check: \(problems.map(\.description))") }
                case "backup":
                    try library.backup(to: backup, overwrite: true)
                    let problems = try Library.check(at: backup)
                    if !problems.isEmpty { report.fail("check of the backup: \(problems.map(\.description))") }
                default:
                    _ = try library.info()
                }
                report.count(kind, .acknowledged)
            } catch let error as StorageError where error.reason == .busy {
                report.count(kind, .busy)
            } catch {
                report.count(kind, .failed)
                report.fail("\(kind): \(error)")
            }
        }
    }
}

/// A thread of its own for blocking library calls, off Swift's cooperative threads (two here).
final class Worker: Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        Thread.detachNewThread { [done] in
            body()
            done.signal()
        }
    }

    func wait() { done.wait() }
}

/// What the program saw and did, shared by its threads and tasks.
final class Report: Sendable {
    enum Outcome: String { case acknowledged, busy, failed }

    struct Seen {
        var observer: [Int64] = []
        var feed: [Int64] = []
        var overflows = 0
    }

    private struct State {
        var seen = Seen()
        var counts: [String: [String: Int]] = [:]
        var failures: [String] = []
    }

    private let state = Mutex(State())

    func saw(_ set: ChangeSet, by who: WritableKeyPath<Seen, [Int64]>) {
        state.withLock {
            if set.isOverflow { $0.seen.overflows += 1 }
            $0.seen[keyPath: who].append(set.cursor)
        }
    }

    var lastCursors: (observer: Int64, feed: Int64) {
        state.withLock { ($0.seen.observer.last ?? 0, $0.seen.feed.last ?? 0) }
    }

    func count(_ kind: String, _ outcome: Outcome) {
        state.withLock { $0.counts[kind, default: [:]][outcome.rawValue, default: 0] += 1 }
    }

    func fail(_ message: String) {
        state.withLock { $0.failures.append(message) }
    }

    var hasFailures: Bool { state.withLock { !$0.failures.isEmpty || $0.seen.overflows > 0 } }

    func json() -> String {
        state.withLock { state in
            let object: [String: Any] = [
                "observer": state.seen.observer, "feed": state.seen.feed, "overflows": state.seen.overflows,
                "counts": state.counts, "failures": state.failures,
            ]
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
            return String(decoding: data, as: UTF8.self)
        }
    }
}
