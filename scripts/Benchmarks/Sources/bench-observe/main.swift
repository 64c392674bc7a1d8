// bench-observe: what observation costs a bulk insert, and how fast another process hears of a commit.
//
// Usage: bench-observe throughput ALBUMS ROUNDS DIRECTORY
//        bench-observe latency COMMITS QUIET IDLE_SECONDS DIRECTORY ALBUMSTORE_BINARY
//
// throughput: inserts ALBUMS albums in one transaction (`albums.append(contentsOf:)`, one
//   undoable command) into a fresh library, with observation off (no subscriber) and on (one
//   in-process subscriber consuming `library.changes`), ROUNDS times each, alternating. The
//   change-log triggers are there both ways: a library puts back any that are dropped at its
//   next write, and the bulk insert sets its insert trigger aside and logs one range entry
//   either way. Besides the time, each side's kernel time and what it handed to write calls
//   (from /proc), which repeat where the time does not. The albums are built before the clock
//   starts. For reference it also times the same rows through a plain per-row loop, without the
//   triggers and with them logging every row, the path the bulk insert avoids.
// latency: runs `albumstore watch --format ndjson` on a library, commits COMMITS single albums
//   from this process at irregular intervals, and times each commit to the moment its line
//   arrives from the watcher's stdout. Then QUIET more, each after 1.2 to 2.2 s without any
//   (the watcher has backed off by then), timed the same way; then the CPU time the watcher uses
//   over IDLE_SECONDS without any commit (from /proc, where there is one).
import AlbumStore
import BenchStatistics
import Foundation
import AlbumSQLite
import Synchronization

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench-observe: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
switch (arguments.count > 1 ? arguments[1] : "", arguments.count) {
case ("throughput", 5): throughput(albums: Int(arguments[2]) ?? 0, rounds: Int(arguments[3]) ?? 0, directory: arguments[4])
case ("latency", 7):
    latency(commits: Int(arguments[2]) ?? 0, quiet: Int(arguments[3]) ?? 0, idleSeconds: Double(arguments[4]) ?? 0,
            directory: arguments[5], binary: arguments[6])
default:
    FileHandle.standardError.write(Data("""
        usage: bench-observe throughput ALBUMS ROUNDS DIRECTORY
               bench-observe latency COMMITS QUIET IDLE_SECONDS DIRECTORY ALBUMSTORE_BINARY\n
        """.utf8))
    exit(2)
}

// MARK: Throughput

func drafts(_ count: Int) -> [AlbumDraft] {
    (0..<count).map { number in
        AlbumDraft(title: "Album Title \(number)", artist: "Artist \(number % 5000)", genre: "Rock",
                   year: 1950 + number % 75, coverURL: "https://covers.example.com/\(number).jpg")
    }
}

func freshLibrary(_ directory: String, _ name: String) throws -> Library {
    let path = directory + "/" + name + ".sqlite"
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    return try Library.open(at: URL(fileURLWithPath: path))
}

/// What this process has used so far: CPU time in the kernel, and the bytes and calls it handed
/// to `write` and `pwrite` (`/proc/self/stat`, `/proc/self/io`); zeros where there is no /proc.
struct Usage {
    var kernelSeconds = 0.0, bytesWritten = 0.0, writeCalls = 0.0

    static func now() -> Usage {
        var usage = Usage()
        if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8), let end = stat.lastIndex(of: ")") {
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            if fields.count > 12, let ticks = Double(fields[12]) { usage.kernelSeconds = ticks / Double(sysconf(Int32(_SC_CLK_TCK))) }
        }
        for line in ((try? String(contentsOfFile: "/proc/self/io", encoding: .utf8)) ?? "").split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Double(parts[1]) else { continue }
            if parts[0] == "wchar:" { usage.bytesWritten = value }
            if parts[0] == "syscw:" { usage.writeCalls = value }
        }
        return usage
    }

    static func - (after: Usage, before: Usage) -> Usage {
        Usage(kernelSeconds: after.kernelSeconds - before.kernelSeconds, bytesWritten: after.bytesWritten - before.bytesWritten,
              writeCalls: after.writeCalls - before.writeCalls)
    }
}

/// One side's round: the time, and what the process used meanwhile.
struct Sample {
    var seconds: Double
    var usage: Usage
}

/// Times `body` and takes what the process used meanwhile.
func sample(_ body: () throws -> Void) rethrows -> Sample {
    let before = Usage.now()
    let seconds = try measure(body).1
    return Sample(seconds: seconds, usage: Usage.now() - before)
}

/// The medians of one side's rounds, as printed.
func summary(_ samples: [Sample]) -> String {
    "\(format(median(samples.map(\.seconds)), 3)) s   kernel \(format(median(samples.map(\.usage.kernelSeconds)), 1)) s, "
        + "\(format(median(samples.map(\.usage.bytesWritten)) / 1e9, 2)) GB in \(format(median(samples.map(\.usage.writeCalls)) / 1e6, 2))M writes"
}

func throughput(albums: Int, rounds: Int, directory: String) {
    guard albums > 0, rounds > 0 else { fail("ALBUMS and ROUNDS must be positive") }
    let rows = drafts(albums)
    var off: [Sample] = [], on: [Sample] = [], perRow: [Double] = [], plain: [Double] = []
    do {
        for round in 0..<rounds {
            func measureOff() throws {
                let library = try freshLibrary(directory, "off")
                off.append(try sample { try library.albums.append(contentsOf: rows) })
            }
            // Alternate which side goes first: the file system remembers the previous round.
            if round % 2 == 0 { try measureOff() }
            do {
                let library = try freshLibrary(directory, "on")
                let received = Mutex(0)
                let subscriber = library.changes
                let consumer = Task {
                    for await set in subscriber {
                        received.withLock { $0 += set.albums.inserted.count }
                    }
                }
                on.append(try sample { try library.albums.append(contentsOf: rows) })
                while received.withLock({ $0 }) < albums { Thread.sleep(forTimeInterval: 0.001) }
                consumer.cancel()
            }
            if round % 2 == 1 { try measureOff() }
            for logging in [false, true] {
                let library = try freshLibrary(directory, "rows")
                let connection = try Connection(path: library.path)
                // No library writes to this file, so the triggers stay dropped.
                if !logging {
                    try connection.execute("""
                        DROP TRIGGER albums_log_insert; DROP TRIGGER albums_log_update; DROP TRIGGER albums_log_delete;
                        """)
                }
                let elapsed = try measure {
                    try connection.transaction {
                        let insert = try connection.prepare("""
                            INSERT INTO albums (position, title, artist, genre, year, cover_url, created_at, updated_at)
                            VALUES (?, ?, ?, ?, ?, ?, 0, 0)
                            """)
                        for (number, row) in rows.enumerated() {
                            try insert.bind(Int64(number) << 32, at: 1)
                            try insert.bind(row.title, at: 2)
                            try insert.bind(row.artist, at: 3)
                            try insert.bind(row.genre, at: 4)
                            try insert.bind(row.year, at: 5)
                            try insert.bind(row.coverURL, at: 6)
                            try insert.run()
                        }
                    }
                }.1
                if logging { perRow.append(elapsed) } else { plain.append(elapsed) }
            }
        }
    } catch {
        fail("\(error)")
    }
    let ratio = median(on.map(\.seconds)) / median(off.map(\.seconds))
    print("bench-observe throughput: \(albums) albums in one transaction, \(rounds) rounds, medians")
    print("  observation off (no subscriber)                   \(summary(off))")
    print("  one in-process subscriber                         \(summary(on))")
    print("  ratio \(format(ratio))x  \(ratio <= 1.15 ? "ok (≤ 1.15x)" : "MISSED (> 1.15x)")")
    print("  for reference, a per-row SQL loop without triggers \(format(median(plain), 3)) s")
    print("  the same loop with the triggers logging every row  \(format(median(perRow), 3)) s   ratio \(format(median(perRow) / median(plain)))x")
    if ratio > 1.15 { exit(3) }
}

// MARK: Latency

/// Lines read from a pipe, each stamped with the time it arrived.
final class Arrivals: Sendable {
    let times = Mutex<[ContinuousClock.Instant]>([])
}

/// The CPU time (user and system, all threads) process `pid` has used, in seconds, from
/// `/proc/PID/stat` (clock ticks, usually 10 ms); `nil` where there is no /proc.
func cpuSeconds(of pid: Int32) -> Double? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let end = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

func latency(commits: Int, quiet: Int, idleSeconds: Double, directory: String, binary: String) {
    guard commits > 0 else { fail("COMMITS must be positive") }
    let path = directory + "/latency.sqlite"
    do {
        let library = try Library.open(at: URL(fileURLWithPath: path))
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: binary)
        watch.arguments = ["watch", "--db", path, "--format", "ndjson"]
        let stdout = Pipe(), stderr = Pipe()
        watch.standardOutput = stdout
        watch.standardError = stderr
        let arrivals = Arrivals()
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let now = ContinuousClock.now
            let lines = handle.availableData.filter { $0 == UInt8(ascii: "\n") }.count
            arrivals.times.withLock { $0 += Array(repeating: now, count: lines) }
        }
        try watch.run()
        defer { watch.terminate() }
        // Wait for "Watching ..." on stderr: the watcher has taken its starting cursor.
        _ = stderr.fileHandleForReading.availableData

        /// Commits one album after `gap` seconds and returns how long the watcher took to print it.
        func timedCommit(_ number: Int, after gap: Double) throws -> Double {
            Thread.sleep(forTimeInterval: gap)
            let start = ContinuousClock.now
            try library.albums.append(AlbumDraft(title: "Latency \(number)", artist: "Bench"))
            let deadline = start + .seconds(5)
            while arrivals.times.withLock({ $0.count }) <= number {
                if ContinuousClock.now > deadline { fail("watch printed nothing for commit \(number) within 5 s") }
                Thread.sleep(forTimeInterval: 0.0001)
            }
            return seconds(arrivals.times.withLock { $0[number] } - start)
        }
        var latencies: [Double] = []
        for number in 0..<commits {
            // Irregular gaps, so commits land at every phase of the watcher's polling.
            latencies.append(try timedCommit(number, after: Double.random(in: 0.005...0.03)))
        }
        // After a quiet spell the watcher has backed off: this is the latency an idle watch gives.
        // Random gaps: a fixed one would land at the same phase of a polling watcher's looks.
        let quietLatencies = try (0..<quiet).map { try timedCommit(commits + $0, after: Double.random(in: 1.2...2.2)) }
        // Then nothing at all: what an idle watch costs. Past the second of frequent looks first.
        Thread.sleep(forTimeInterval: 1.5)
        let cpuBefore = cpuSeconds(of: watch.processIdentifier)
        Thread.sleep(forTimeInterval: idleSeconds)
        let cpuAfter = cpuSeconds(of: watch.processIdentifier)
        let p50 = percentile(latencies, 50) * 1000, p99 = percentile(latencies, 99) * 1000
        print("bench-observe latency: \(commits) commits in this process, each until `albumstore watch` printed it")
        print("  p50 \(format(p50, 1)) ms   p99 \(format(p99, 1)) ms   max \(format(latencies.max()! * 1000, 1)) ms   "
              + (p50 <= 100 ? "ok (p50 ≤ 100 ms" + (p99 <= 100 ? ", p99 too)" : "; p99 is not)") : "MISSED (p50 > 100 ms)"))
        if !quietLatencies.isEmpty {
            print("  after 1.2 to 2.2 s of quiet (\(quiet) commits): p50 \(format(percentile(quietLatencies, 50) * 1000, 1)) ms   "
                  + "max \(format(quietLatencies.max()! * 1000, 1)) ms")
        }
        var idleMissed = false
        if let cpuBefore, let cpuAfter, idleSeconds > 0 {
            let share = (cpuAfter - cpuBefore) / idleSeconds * 100
            idleMissed = share > 1
            print("bench-observe idle: `albumstore watch` with no commit for \(format(idleSeconds, 0)) s used "
                  + "\(format((cpuAfter - cpuBefore) * 1000, 0)) ms of CPU, \(format(share, 2))% of a core   "
                  + (idleMissed ? "MISSED (> 1%)" : "ok (≤ 1%)"))
        }
        if p50 > 100 || idleMissed { exit(3) }
    } catch {
        fail("\(error)")
    }
}
