// bench-list: `albumstore list` on a large library, each format against the sqlite3 shell printing
// the same columns in the same order, every command a whole process writing to /dev/null.
//
// Usage: bench-list ALBUMS ROUNDS DIRECTORY ALBUMSTORE_BINARY SQLITE3_BINARY TIME_BINARY
//
// 1. Fills DIRECTORY/library.sqlite with ALBUMS albums straight through SQL (the change-log trigger
//    and the indexes dropped meanwhile and put back after: the fastest way to a large library;
//    opening the library afterwards checks it and reinstalls the trigger).
// 2. Checks that the outputs are the same data: albumstore's json and tsv are byte for byte the
//    sqlite3 shell's -json and -tabs output (FNV-1a hash and length of each).
// 3. ROUNDS rounds; in each, every pair (albumstore list --format F, sqlite3 in the matching mode)
//    runs back to back, the order alternating between rounds. Reports the median time of each,
//    the median and range of the per-round ratios, and each process's peak RSS (GNU time's %M).
// 4. `albumstore list --format F | head -1`: the time from starting the process to its first line
//    on a pipe, and to its exit once the pipe is closed after that line; ROUNDS times each.
//
// Targets: each format's ratio (median) at most 1.5x; every albumstore peak RSS under 50 MB; the
// first line and the exit of `list | head -1` under 50 ms (median). Exit 0 when all are met, 3 when
// one is missed, 1 on error.
import AlbumSQLite
import AlbumStore
import BenchStatistics
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench-list: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 7, let albums = Int(arguments[1]), let rounds = Int(arguments[2]), albums > 0, rounds > 0 else {
    FileHandle.standardError.write(Data("usage: bench-list ALBUMS ROUNDS DIRECTORY ALBUMSTORE_BINARY SQLITE3_BINARY TIME_BINARY\n".utf8))
    exit(2)
}
let directory = arguments[3], albumstore = arguments[4], sqlite3 = arguments[5], time = arguments[6]
let database = directory + "/library.sqlite"

// MARK: Processes

/// What one process did: wall time from spawn to exit, CPU time, peak RSS.
struct Run {
    var status: Int32
    var seconds: Double
    var cpu: Double
    var maxRSSKiB: Int
}

/// Spawns `argv` with stdin from /dev/null, stdout to `stdout` (a descriptor of ours) and stderr
/// to this process's; returns its pid.
func spawn(_ argv: [String], stdout: Int32) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, stdout, 1)
    let cArguments = argv.map { strdup($0) } + [nil]
    let environment = ProcessInfo.processInfo.environment.map { strdup("\($0)=\($1)") } + [nil]
    defer { (cArguments + environment).forEach { free($0) } }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environment)
    guard code == 0 else { fail("cannot start \(argv[0]): \(String(cString: strerror(code)))") }
    return pid
}

/// Waits for `pid`; its exit status (128 + the signal when one ended it) and resource usage.
func wait(for pid: pid_t) -> (status: Int32, usage: rusage) {
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
        guard errno == EINTR else { fail("wait4: \(String(cString: strerror(errno)))") }
    }
    return (status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + status & 0x7f, usage)
}

func cpuSeconds(_ usage: rusage) -> Double {
    Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// A pipe whose ends are closed in the children (each gets only what `spawn` passes it): a child
/// holding a read end of its own stdout would never see the pipe closed.
func makePipe() -> [Int32] {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { fail("pipe: \(String(cString: strerror(errno)))") }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return ends
}

/// Runs `argv` to completion with stdout to /dev/null, under GNU time for its peak RSS.
///
/// Not our own wait4's `ru_maxrss`: on Linux a child's starts from the memory of the process that
/// spawned it (the kernel keeps the old image's peak across `exec`, and `posix_spawn`'s child runs
/// in its parent's memory until then). `time` is small, so the peak it reports is the command's.
func run(_ argv: [String]) -> Run {
    let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
    defer { close(null) }
    let report = directory + "/time.txt"
    let start = ContinuousClock.now
    let pid = spawn([time, "-f", "%M", "-o", report] + argv, stdout: null)
    let (status, usage) = wait(for: pid)
    let elapsed = seconds(ContinuousClock.now - start)
    guard status == 0 else { fail("\(argv.joined(separator: " ")) exited with status \(status)") }
    guard let text = try? String(contentsOfFile: report, encoding: .utf8),
          let peak = text.split(separator: "\n").last.flatMap({ Int($0) }) else { fail("no peak RSS from \(time)") }
    // The CPU time of `time` includes that of the command it waited for.
    return Run(status: status, seconds: elapsed, cpu: cpuSeconds(usage), maxRSSKiB: peak)
}

/// Runs `argv` and returns the FNV-1a hash and length of its whole output.
func fingerprint(_ argv: [String]) -> (hash: UInt64, bytes: Int) {
    let pipe = makePipe()
    let pid = spawn(argv, stdout: pipe[1])
    close(pipe[1])
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325, total = 0
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(pipe[0], $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        for byte in buffer[..<count] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        total += count
    }
    close(pipe[0])
    guard wait(for: pid).status == 0 else { fail("\(argv.joined(separator: " ")) failed") }
    return (hash, total)
}

/// `argv | head -1`: seconds from spawning to the first line on the pipe, and to the exit after
/// the pipe was closed; the exit status must be 0 (a closed pipe ends the listing quietly).
func firstLine(_ argv: [String]) -> (line: Double, exit: Double) {
    let pipe = makePipe()
    let start = ContinuousClock.now
    let pid = spawn(argv, stdout: pipe[1])
    close(pipe[1])
    var byte: UInt8 = 0
    // One byte at a time, as `head` itself might: the line is complete at its line feed.
    while true {
        let count = read(pipe[0], &byte, 1)
        if count < 0 && errno == EINTR { continue }
        guard count == 1 else { fail("\(argv.joined(separator: " ")) printed no line") }
        if byte == UInt8(ascii: "\n") { break }
    }
    let line = seconds(ContinuousClock.now - start)
    close(pipe[0])
    let (status, _) = wait(for: pid)
    let exit = seconds(ContinuousClock.now - start)
    guard status == 0 else { fail("\(argv.joined(separator: " ")) | head -1 exited with status \(status)") }
    return (line, exit)
}

// MARK: The library

/// Fills the library with `count` albums whose list order is their id order (so the sqlite3
/// shell can print the index as `id - 1`). Every tenth title holds a comma (CSV quotes it), every
/// twentieth artist is beyond ASCII, every third album has an external id, dates differ per album.
func fill(count: Int) throws {
    _ = try Library.open(at: URL(fileURLWithPath: database))
    let connection = try Connection(path: database)
    let indexes = try connection.query(
        "SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'albums' AND sql IS NOT NULL") { try $0[0, as: String.self] }
    try connection.execute("DROP TRIGGER albums_log_insert")
    for index in try connection.query(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'albums' AND sql IS NOT NULL", as: { try $0[0, as: String.self] }) {
        try connection.execute("DROP INDEX \(index)")
    }
    try connection.transaction {
        try connection.run("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            INSERT INTO albums (id, position, title, artist, genre, year, cover_url, external_id, created_at, updated_at)
            SELECT i, (i - 1) * 4294967296,
                   'Album Title ' || i || CASE WHEN i % 10 = 0 THEN ', Remastered' ELSE '' END,
                   CASE WHEN i % 20 = 0 THEN 'Sigur Rós ' ELSE 'Artist ' END || (i % 5000),
                   CASE i % 4 WHEN 0 THEN 'Rock' WHEN 1 THEN 'Jazz' WHEN 2 THEN 'Electronic' ELSE NULL END,
                   1950 + i % 75, 'https://covers.example.com/' || i || '.jpg',
                   CASE WHEN i % 3 = 0 THEN 'discogs:' || i END,
                   1764000000000 + i * 1037, 1764000000000 + i * 1037 + i % 7 * 86400000
            FROM n
            """, count)
    }
    for sql in indexes { try connection.execute(sql) }
    // Opening reinstalls the trigger and checks the file.
    let library = try Library.open(at: URL(fileURLWithPath: database))
    guard try library.albums.count() == count else { fail("the library does not hold \(count) albums") }
}

// MARK: The contenders

/// The columns `list` prints, in its order, as the sqlite3 shell computes them: the index from the
/// id (the list order is the id order here), dates as the same ISO 8601 text.
let query = """
    SELECT id - 1 AS "index", id, title, artist, genre, year, cover_url, external_id,
           strftime('%Y-%m-%dT%H:%M:%fZ', created_at / 1000.0, 'unixepoch') AS created_at,
           strftime('%Y-%m-%dT%H:%M:%fZ', updated_at / 1000.0, 'unixepoch') AS updated_at
    FROM albums ORDER BY position, id
    """

/// The same rows with the dates as stored, integers: less work for the shell than ours does.
let rawQuery = """
    SELECT id - 1 AS "index", id, title, artist, genre, year, cover_url, external_id, created_at, updated_at
    FROM albums ORDER BY position, id
    """

struct Contender {
    /// The row's name in the report.
    var name: String
    var format: String
    var reference: String
    var sqlite3Arguments: [String]
    var sql = query

    var ours: [String] { [albumstore, "list", "--db", database, "--format", format] }
    var theirs: [String] { [sqlite3] + sqlite3Arguments + [database, sql] }
}

let contenders = [
    // -csv ends lines with CRLF; -newline makes them LF, as ours. It quotes every field with a space.
    Contender(name: "csv", format: "csv", reference: "sqlite3 -csv -header", sqlite3Arguments: ["-csv", "-header", "-newline", "\n"]),
    // The closest the shell has: the same objects, in one array.
    Contender(name: "ndjson", format: "ndjson", reference: "sqlite3 -json", sqlite3Arguments: ["-json"]),
    Contender(name: "tsv", format: "tsv", reference: "sqlite3 -tabs -header", sqlite3Arguments: ["-tabs", "-header"]),
    Contender(name: "json", format: "json", reference: "sqlite3 -json", sqlite3Arguments: ["-json"]),
    Contender(name: "csv (2)", format: "csv", reference: "sqlite3 -csv, dates as integers",
              sqlite3Arguments: ["-csv", "-header", "-newline", "\n"], sql: rawQuery),
]

// MARK: Main

do {
    FileHandle.standardError.write(Data("Filling a library with \(albums) albums...\n".utf8))
    let (_, filling) = try measure { try fill(count: albums) }
    FileHandle.standardError.write(Data("  \(format(filling, 1)) s. Checking the outputs...\n".utf8))
} catch {
    fail("\(error)")
}

// The same data: albumstore's json and tsv are the shell's -json and -tabs output, byte for byte.
for contender in contenders where contender.name == "json" || contender.name == "tsv" {
    let ours = fingerprint(contender.ours), theirs = fingerprint(contender.theirs)
    guard ours == theirs else {
        fail("list --format \(contender.format) (\(ours.bytes) bytes) differs from \(contender.reference) (\(theirs.bytes) bytes)")
    }
}
FileHandle.standardError.write(Data("  json and tsv are byte for byte the shell's. Timing \(rounds) rounds...\n".utf8))

var ours: [String: [Run]] = [:], theirs: [String: [Run]] = [:], table: [Run] = []
for round in 0..<rounds {
    for contender in contenders {
        // Alternate who goes first: the second of a pair finds the file warmer in the page cache.
        if round % 2 == 0 {
            ours[contender.name, default: []].append(run(contender.ours))
            theirs[contender.name, default: []].append(run(contender.theirs))
        } else {
            theirs[contender.name, default: []].append(run(contender.theirs))
            ours[contender.name, default: []].append(run(contender.ours))
        }
    }
    table.append(run([albumstore, "list", "--db", database]))
}

var heads: [String: [(line: Double, exit: Double)]] = [:]
let headFormats = ["table", "csv", "tsv", "ndjson", "json"]
for _ in 0..<rounds {
    for format in headFormats {
        heads[format, default: []].append(firstLine([albumstore, "list", "--db", database, "--format", format]))
    }
}

// MARK: Report

var missed = false
@MainActor func verdict(_ met: Bool, _ target: String) -> String {
    if !met { missed = true }
    return met ? "ok (\(target))" : "MISSED (\(target))"
}
func megabytes(_ kib: Int) -> String { format(Double(kib) / 1024, 1) + " MB" }
func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(1, width - text.count)) }

let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
print("bench-list: \(albums) albums, \(rounds) rounds, release build, SQLite \(Connection.sqliteVersion), load average \(load)")
print("each command a whole process writing to /dev/null; the pair of a round runs back to back")
print("")
print("format   albumstore list   sqlite3 shell, same columns              ratio: median (min-max)         peak RSS: ours / sqlite3")
for contender in contenders {
    guard let mine = ours[contender.name], let reference = theirs[contender.name] else { continue }
    let ratios = zip(mine, reference).map { $0.seconds / $1.seconds }
    let ratio = median(ratios)
    let rss = mine.map(\.maxRSSKiB).max() ?? 0
    print(padded(contender.name, 9)
          + padded("\(format(median(mine.map(\.seconds)), 3)) s", 18)
          + padded("\(format(median(reference.map(\.seconds)), 3)) s \(contender.reference)", 41)
          + padded("\(format(ratio))x (\(format(ratios.min() ?? 0))-\(format(ratios.max() ?? 0))) "
                   + verdict(ratio <= 1.5, "≤ 1.5x"), 32)
          + "\(megabytes(rss)) / \(megabytes(reference.map(\.maxRSSKiB).max() ?? 0)) " + verdict(rss < 50 * 1024, "< 50 MB"))
}
let tableRSS = table.map(\.maxRSSKiB).max() ?? 0
print(padded("table", 9) + padded("\(format(median(table.map(\.seconds)), 3)) s", 18) + padded("(no counterpart)", 73)
      + "\(megabytes(tableRSS)) " + verdict(tableRSS < 50 * 1024, "< 50 MB"))
print("  csv (2): the shell leaves the dates as the stored integers, less work than our ISO 8601 text")
print("  cpu (user + sys, median): " + contenders.compactMap { contender in
    guard let mine = ours[contender.name], let reference = theirs[contender.name] else { return nil }
    return "\(contender.name) \(format(median(mine.map(\.cpu)), 2)) s vs \(format(median(reference.map(\.cpu)), 2)) s"
}.joined(separator: ", ") + ", table \(format(median(table.map(\.cpu)), 2)) s")
print("")
print("list --format F | head -1: from start to the first line, and to the exit (status 0); median (max) of \(rounds)")
for format in headFormats {
    guard let runs = heads[format] else { continue }
    let line = median(runs.map(\.line)) * 1000, exit = median(runs.map(\.exit)) * 1000
    print(padded(format, 9) + "first line \(BenchStatistics.format(line, 1)) ms (\(BenchStatistics.format((runs.map(\.line).max() ?? 0) * 1000, 1)))"
          + "   exit \(BenchStatistics.format(exit, 1)) ms (\(BenchStatistics.format((runs.map(\.exit).max() ?? 0) * 1000, 1)))   "
          + verdict(line < 50 && exit < 50, "< 50 ms"))
}
print("")
print("verdict: " + (missed ? "a target was missed" : "all targets met"))
exit(missed ? 3 : 0)
