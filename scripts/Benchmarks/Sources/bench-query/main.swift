// bench-query: a large library, two ways.
//   - The query language: six query shapes run by the library (`albums(matching:sortedBy:limit:)`,
//     `stats()`) in this process, against the same SQL through SQLite's C API alone (bench-query-c:
//     prepared once, every column of every row read), in microseconds an iteration. Target: the
//     library within 1.2x of C (median of the per-round ratios).
//   - Light commands as a user runs them: `albumstore --version`, `show ID`, `list --limit 1` and a
//     light `query`, each a whole process, against the `sqlite3` shell doing the same lookup, wall
//     time over RUNS runs. Target: each command's median under 20 ms. `query 坂本`, which reads
//     every album, is measured the same way, without a target.
//
// Usage: bench-query ALBUMS ROUNDS RUNS DATABASE ALBUMSTORE_BINARY SQLITE3_BINARY C_BINARY
//
// DATABASE is filled with ALBUMS generated albums when it does not exist yet (the script keeps it
// in its cache folder). Before timing, each shape's rows are checked to be the same both ways
// (count and sum of ids), and each light command to print the album the shell finds. Each round
// runs every pair back to back, alternating which goes first. Exit 0 when every target is met, 3
// when one is missed.
import AlbumSQLite
import AlbumStore
import BenchStatistics
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench-query: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 8, let albumCount = Int(arguments[1]), let rounds = Int(arguments[2]), let runs = Int(arguments[3]),
      albumCount > 0, rounds > 0, runs > 0 else {
    FileHandle.standardError.write(Data("usage: bench-query ALBUMS ROUNDS RUNS DATABASE ALBUMSTORE_BINARY SQLITE3_BINARY C_BINARY\n".utf8))
    exit(2)
}
let database = arguments[4], albumstore = arguments[5], sqlite3 = arguments[6], reference = arguments[7]

// MARK: The library

/// Two words a title: 40 starts times 25 ends make 1,000 words ("midnight" among them), each in
/// about 2 of every 1,000 titles; a prefix such as "mid" starts 25 of them.
let starts = ["mid", "sun", "moon", "star", "blue", "red", "gold", "dark", "bright", "night", "sea", "sky", "fire",
              "ice", "stone", "wild", "lost", "high", "deep", "far", "silver", "iron", "glass", "paper", "velvet",
              "summer", "winter", "spring", "autumn", "river", "desert", "forest", "city", "heart", "soul", "dream",
              "ghost", "echo", "shadow", "crystal"]
let ends = ["night", "light", "fall", "rise", "song", "land", "way", "side", "line", "shine", "storm", "wave", "time",
            "road", "fire", "glow", "field", "stone", "wind", "rain", "bird", "town", "room", "day", "blues"]
/// Titles and artists in scripts written without spaces, one album in 1,000 (one in 20 of them by
/// 坂本龍一, "音楽" in its title): a search for a part of a name reads the whole library for 50.
let unspaced = [
    ("坂本龍一の音楽", "坂本龍一"), ("千と千尋の神隠し", "久石譲"), ("東京事変", "椎名林檎"), ("初恋", "宇多田ヒカル"),
    ("川の流れのように", "美空ひばり"), ("ライディーン", "イエロー・マジック・オーケストラ"), ("月亮代表我的心", "邓丽君"),
    ("十年", "陈奕迅"), ("夜曲", "周杰伦"), ("서울의 밤", "아이유"), ("봄날", "방탄소년단"), ("สวัสดีครับ", "บอดี้สแลม"),
    ("ลมหายใจ", "โปเตโต้"), ("世界に一つだけの花", "SMAP"), ("さくらんぼ", "大塚愛"), ("残酷な天使のテーゼ", "高橋洋子"),
    ("夜に駆ける", "YOASOBI"), ("紅蓮華", "LiSA"), ("海の声", "浦島太郎"), ("春よ、来い", "松任谷由実"),
]
let genres = ["Rock", "Jazz", "Electronic", "Pop", "Classical", "Hip Hop", "Folk", "Metal", "Blues", "Soul", "Reggae",
              "Country", "Punk", "Ambient", "Funk", "Latin", "World", "Soundtrack", "Gospel", "Disco"]

/// Fills `path` with `count` albums through SQL, the triggers and indexes on albums set aside and
/// put back after (the full-text index rebuilt in one pass), then gathers the planner's statistics,
/// as a large import does.
func fill(_ path: String, count: Int) throws {
    _ = try Library.open(at: URL(fileURLWithPath: path))
    let connection = try Connection(path: path)
    let derived = try connection.query("""
        SELECT type, name, sql FROM sqlite_schema
        WHERE type IN ('index', 'trigger') AND tbl_name = 'albums' AND sql IS NOT NULL
        """) { (try $0[0, as: String.self], try $0[1, as: String.self], try $0[2, as: String.self]) }
    for (type, name, _) in derived { try connection.execute("DROP \(type) \(name)") }
    try connection.execute("CREATE TEMP TABLE words (n INTEGER PRIMARY KEY, word TEXT)")
    for (n, word) in starts.flatMap({ start in ends.map { start + $0 } }).enumerated() {
        try connection.run("INSERT INTO temp.words VALUES (?, ?)", n, word)
    }
    try connection.execute("CREATE TEMP TABLE genres (n INTEGER PRIMARY KEY, genre TEXT)")
    for (n, genre) in genres.enumerated() { try connection.run("INSERT INTO temp.genres VALUES (?, ?)", n, genre) }
    try connection.execute("CREATE TEMP TABLE unspaced (n INTEGER PRIMARY KEY, title TEXT, artist TEXT)")
    for (n, (title, artist)) in unspaced.enumerated() {
        try connection.run("INSERT INTO temp.unspaced VALUES (?, ?, ?)", n, title, artist)
    }
    try connection.transaction {
        try connection.run("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
            INSERT INTO albums (id, position, title, artist, genre, year, cover_url, external_id, created_at, updated_at)
            SELECT i, (i - 1) * 4294967296,
                   CASE WHEN i % 1000 = 500 THEN (SELECT title FROM temp.unspaced WHERE n = i / 1000 % 20)
                   ELSE (SELECT word FROM temp.words WHERE n = i * 7919 % 1000) || ' '
                       || (SELECT word FROM temp.words WHERE n = i / 3 * 104729 % 1000) END,
                   CASE WHEN i % 1000 = 500 THEN (SELECT artist FROM temp.unspaced WHERE n = i / 1000 % 20)
                   ELSE CASE WHEN i % 20 = 0 THEN 'Sigur Rós ' ELSE 'Artist ' END || (i % 50000) END,
                   (SELECT genre FROM temp.genres WHERE n = i % 21),
                   CASE WHEN i % 50 = 0 THEN NULL ELSE 1950 + i % 75 END,
                   'https://covers.example.com/' || i || '.jpg',
                   CASE WHEN i % 3 = 0 THEN 'discogs:' || i END,
                   1764000000000 + i * 1037, 1764000000000 + i * 1037
            FROM n
            """, count)
        try connection.execute("INSERT INTO album_search (album_search) VALUES ('rebuild')")
        for (_, _, sql) in derived { try connection.execute(sql) }
        try connection.execute("ANALYZE")
    }
    let library = try Library.open(at: URL(fileURLWithPath: path))
    guard try library.albums.count() == count else { fail("the library does not hold \(count) albums") }
}

if !FileManager.default.fileExists(atPath: database) {
    FileHandle.standardError.write(Data("Filling \(database) with \(albumCount) albums...\n".utf8))
    let partial = database + ".partial"
    try? FileManager.default.removeItem(atPath: partial)
    do { try fill(partial, count: albumCount) } catch { fail("filling the library: \(error)") }
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
    guard rename(partial, database) == 0 else { fail("cannot rename \(partial)") }
}

// MARK: The shapes

/// One query shape: how the library, the CLI, C and the shell each ask for it.
struct Shape {
    var name: String
    var terms: [String]
    var sort: String?
    var limit: Int?
    /// The statements as the library runs them, each with its parameters for bench-query-c.
    var statements: [(sql: String, parameters: [String])]
    /// The same with the values inlined, for the sqlite3 shell.
    var shellSQL: String
    /// Library iterations per round.
    var iterations: Int
    var isStats: Bool { terms.isEmpty }
    /// The query and sort as Swift code builds them (parsed once, outside the timing).
    var query = AlbumQuery.all
    var order = AlbumSort.listOrder
}

let columns = "id, title, artist, genre, year, cover_url, external_id, created_at, updated_at"
let statsStatements = [
    "SELECT count(*), count(DISTINCT artist), count(DISTINCT genre), count(*) - count(year) FROM albums",
    "SELECT genre, count(*) AS albums FROM albums WHERE genre IS NOT NULL GROUP BY genre ORDER BY albums DESC, genre LIMIT 10",
    "SELECT artist, count(*) AS albums FROM albums WHERE artist IS NOT NULL GROUP BY artist ORDER BY albums DESC, artist LIMIT 10",
    "SELECT year / 10 * 10 AS decade, count(*) FROM albums WHERE typeof(year) = 'integer' GROUP BY decade ORDER BY decade",
]
var shapes = [
    Shape(
        name: "(i) artist equals", terms: ["artist:=Artist 1234"], sort: nil, limit: nil,
        statements: [("SELECT \(columns) FROM albums WHERE (artist = ? COLLATE NOCASE AND artist = ?) ORDER BY position, id",
                      ["t:Artist 1234", "t:Artist 1234"])],
        shellSQL: "SELECT \(columns) FROM albums WHERE (artist = 'Artist 1234' COLLATE NOCASE AND artist = 'Artist 1234') ORDER BY position, id",
        iterations: 300),
    Shape(
        name: "(ii) genre + years, by year, 50", terms: ["genre:=Rock", "year:1990..1999"], sort: "year", limit: 50,
        statements: [("SELECT \(columns) FROM albums WHERE id IN (SELECT id FROM albums WHERE genre = ? AND year BETWEEN ? AND ? ORDER BY year, position, id LIMIT 50 OFFSET ?) ORDER BY year, position, id",
                      ["t:Rock", "i:1990", "i:1999", "i:0"])],
        shellSQL: "SELECT \(columns) FROM albums WHERE genre = 'Rock' AND year BETWEEN 1990 AND 1999 ORDER BY year, position, id LIMIT 50",
        iterations: 300),
    Shape(
        name: "(iii) full-text word, 50", terms: ["midnight"], sort: nil, limit: 50,
        statements: [("SELECT \(columns) FROM albums WHERE id IN (SELECT id FROM albums WHERE id IN (SELECT rowid FROM album_search WHERE album_search MATCH ?) ORDER BY position, id LIMIT 50 OFFSET ?) ORDER BY position, id",
                      ["t:\"midnight\"", "i:0"])],
        shellSQL: "SELECT \(columns) FROM albums WHERE id IN (SELECT rowid FROM album_search WHERE album_search MATCH '\"midnight\"') ORDER BY position, id LIMIT 50",
        iterations: 100),
    Shape(
        name: "(iv) count per genre (stats)", terms: [], sort: nil, limit: nil,
        statements: statsStatements.map { ($0, []) }, shellSQL: statsStatements.joined(separator: "; "), iterations: 3),
    Shape(
        name: "(v) prefix search, 50", terms: ["mid*"], sort: nil, limit: 50,
        statements: [("SELECT \(columns) FROM albums WHERE id IN (SELECT id FROM albums WHERE id IN (SELECT rowid FROM album_search WHERE album_search MATCH ?) ORDER BY position, id LIMIT 50 OFFSET ?) ORDER BY position, id",
                      ["t:\"mid\"*", "i:0"])],
        shellSQL: "SELECT \(columns) FROM albums WHERE id IN (SELECT rowid FROM album_search WHERE album_search MATCH '\"mid\"*') ORDER BY position, id LIMIT 50",
        iterations: 30),
    Shape(
        name: "(vi) CJK substring, 50", terms: ["音楽"], sort: nil, limit: 50,
        statements: [("SELECT \(columns) FROM albums WHERE id IN (SELECT id FROM albums WHERE (instr(title, ?) > 0 OR instr(artist, ?) > 0) ORDER BY position, id LIMIT 50 OFFSET ?) ORDER BY position, id",
                      ["t:音楽", "t:音楽", "i:0"])],
        shellSQL: "SELECT \(columns) FROM albums WHERE (instr(title, '音楽') > 0 OR instr(artist, '音楽') > 0) ORDER BY position, id LIMIT 50",
        iterations: 5),
]

for number in shapes.indices {
    do {
        shapes[number].query = try AlbumQuery(parsingArguments: shapes[number].terms)
        shapes[number].order = try shapes[number].sort.map { try AlbumSort(parsing: $0) } ?? .listOrder
    } catch { fail("\(shapes[number].name): \(error)") }
}

// MARK: Running

let library: Library
do { library = try Library.open(at: URL(fileURLWithPath: database), configuration: .init(access: .readOnly)) } catch { fail("opening: \(error)") }

/// One library iteration of `shape`: its rows and the sum of their first integers, as C counts them.
func runLibrary(_ shape: Shape) throws -> (rows: Int, checksum: Int64) {
    if shape.isStats {
        let stats = try library.albums.stats()
        return (1 + stats.topGenres.count + stats.topArtists.count + stats.decades.count,
                Int64(stats.albums + stats.decades.reduce(0) { $0 + $1.decade }))
    }
    let albums = try library.albums.albums(matching: shape.query, sortedBy: shape.order, limit: shape.limit ?? .max)
    return (albums.count, albums.reduce(0) { $0 + $1.id })
}

/// The library's median microseconds over `shape.iterations` iterations.
func timeLibrary(_ shape: Shape) throws -> Double {
    var times: [Double] = []
    for _ in 0..<shape.iterations {
        let (_, elapsed) = try measure { try runLibrary(shape) }
        times.append(elapsed * 1e6)
    }
    return median(times)
}

/// Runs a process to its end with stdout to /dev/null, or to a file whose text is returned; its
/// wall seconds from spawn to exit. posix_spawn and wait4: Foundation's `Process` notices an exit
/// only at its run loop's next turn, which blurs processes of a few tens of milliseconds.
@discardableResult
func runProcess(_ argv: [String], capture: Bool = false) -> (seconds: Double, cpuSeconds: Double, output: String) {
    let outputPath = database + ".output"
    let descriptor = capture ? open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) : open("/dev/null", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { fail("cannot open the output of \(argv[0])") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, descriptor, 1)
    let cArguments = argv.map { strdup($0) } + [nil]
    let environment = ProcessInfo.processInfo.environment.map { strdup("\($0)=\($1)") } + [nil]
    var pid: pid_t = 0
    let start = ContinuousClock.now
    let code = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environment)
    var status: Int32 = 0
    var usage = rusage()
    if code == 0 { while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {} }
    let elapsed = seconds(ContinuousClock.now - start)
    posix_spawn_file_actions_destroy(&actions)
    (cArguments + environment).forEach { free($0) }
    close(descriptor)
    guard code == 0 else { fail("cannot start \(argv[0]): \(String(cString: strerror(code)))") }
    guard status == 0 else { fail("\(argv.joined(separator: " ")) exited with status \(status)") }
    let output = capture ? ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "") : ""
    let cpu = [usage.ru_utime, usage.ru_stime].reduce(0.0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
    return (elapsed, cpu, output)
}

/// bench-query-c on `shape`: median microseconds, rows and checksum of an iteration.
func runC(_ shape: Shape, iterations: Int) -> (median: Double, rows: Int, checksum: Int64) {
    let argv = [reference, database, String(iterations)] + shape.statements.flatMap { ["--sql", $0.sql] + $0.parameters }
    let fields = runProcess(argv, capture: true).output.split(separator: " ").map { String($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    guard fields.count == 4, let median = Double(fields[0]), let rows = Int(fields[2]), let checksum = Int64(fields[3]) else {
        fail("bench-query-c printed \(fields)")
    }
    return (median, rows, checksum)
}

/// A light command as a user types it, and the `sqlite3` shell doing the same lookup.
struct LightCommand {
    var name: String
    var ours: [String]
    var shell: [String]
    /// A title both must print: the album they look up.
    var expected: String?
    /// Whether the 20 ms target applies: not to a search that reads every album.
    var hasTarget = true
}

/// The light commands, `shape` the light query's, and a search that reads every album.
func lightCommands(query shape: Shape) throws -> [LightCommand] {
    let middle = Int64(albumCount / 2 + 1)
    guard let shown = try library.albums.album(id: middle) else { fail("no album \(middle)") }
    let first = try library.albums.albums(matching: .all, sortedBy: .listOrder, limit: 1)
    let matched = try library.albums.albums(matching: shape.query, sortedBy: .listOrder, limit: 1)
    let unspacedMatch = try library.albums.albums(matching: AlbumQuery(parsing: "坂本"), sortedBy: .listOrder, limit: 1)
    return [
        LightCommand(name: "--version", ours: [albumstore, "--version"], shell: [sqlite3, "-version"]),
        LightCommand(
            name: "show \(middle)", ours: [albumstore, "show", String(middle), "--db", database],
            shell: [sqlite3, "-readonly", database, "SELECT \(columns) FROM albums WHERE id = \(middle)"], expected: shown.title),
        LightCommand(
            name: "list --limit 1", ours: [albumstore, "list", "--limit", "1", "--db", database],
            shell: [sqlite3, "-readonly", database, "SELECT \(columns) FROM albums ORDER BY position, id LIMIT 1"],
            expected: first.first?.title),
        LightCommand(
            name: "query " + shape.terms.joined(separator: " "), ours: [albumstore, "query", "--db", database] + shape.terms,
            shell: [sqlite3, "-readonly", database, shape.shellSQL], expected: matched.first?.title),
        LightCommand(
            name: "query 坂本 (every album read)", ours: [albumstore, "query", "--db", database, "坂本"],
            shell: [sqlite3, "-readonly", database,
                    "SELECT \(columns) FROM albums WHERE (instr(title, '坂本') > 0 OR instr(artist, '坂本') > 0) ORDER BY position, id"],
            expected: unspacedMatch.first?.title, hasTarget: false),
    ]
}

// BENCH_QUERY_PROFILE=N: only run shape N through the library for a few seconds, for a profiler.
if let text = ProcessInfo.processInfo.environment["BENCH_QUERY_PROFILE"], let number = Int(text), shapes.indices.contains(number) {
    let start = ContinuousClock.now
    while ContinuousClock.now - start < .seconds(3) { _ = try? runLibrary(shapes[number]) }
    exit(0)
}

// The same rows both ways before any timing.
for shape in shapes {
    let ours: (rows: Int, checksum: Int64)
    do { ours = try runLibrary(shape) } catch { fail("\(shape.name): \(error)") }
    let c = runC(shape, iterations: 1)
    guard ours.rows == c.rows, ours.checksum == c.checksum, ours.rows > 0 else {
        fail("\(shape.name): the library read \(ours.rows) rows (checksum \(ours.checksum)), C \(c.rows) (\(c.checksum))")
    }
}

let light: [LightCommand]
do { light = try lightCommands(query: shapes[0]) } catch { fail("reading the albums the light commands look up: \(error)") }
// Each prints the album the shell finds (and this first run of each warms the page cache).
for command in light {
    guard let expected = command.expected else { continue }
    for argv in [command.ours, command.shell] {
        guard runProcess(argv, capture: true).output.contains(expected) else {
            fail("\(argv.joined(separator: " ")) does not print \(expected)")
        }
    }
}

var libraryTimes = [[Double]](repeating: [], count: shapes.count), cTimes = libraryTimes, libraryRatios = libraryTimes
for round in 0..<rounds {
    FileHandle.standardError.write(Data("round \(round + 1) of \(rounds)...\n".utf8))
    for (number, shape) in shapes.enumerated() {
        var ours = 0.0, theirs = 0.0
        for contender in (round % 2 == 0 ? [0, 1] : [1, 0]) {
            if contender == 0 {
                do { ours = try timeLibrary(shape) } catch { fail("\(shape.name): \(error)") }
            } else {
                theirs = runC(shape, iterations: shape.iterations).median
            }
        }
        libraryTimes[number].append(ours)
        cTimes[number].append(theirs)
        libraryRatios[number].append(ours / theirs)
    }
}

FileHandle.standardError.write(Data("light commands, \(runs) runs each...\n".utf8))
var lightTimes = [[Double]](repeating: [], count: light.count), shellTimes = lightTimes, lightRatios = lightTimes
var lightCPU = lightTimes, shellCPU = lightTimes
for run in 0..<runs {
    for (number, command) in light.enumerated() {
        var ours = (seconds: 0.0, cpuSeconds: 0.0, output: ""), shell = ours
        for contender in (run % 2 == 0 ? [0, 1] : [1, 0]) {
            if contender == 0 { ours = runProcess(command.ours) } else { shell = runProcess(command.shell) }
        }
        lightCPU[number].append(ours.cpuSeconds * 1000)
        shellCPU[number].append(shell.cpuSeconds * 1000)
        lightTimes[number].append(ours.seconds * 1000)
        shellTimes[number].append(shell.seconds * 1000)
        lightRatios[number].append(ours.seconds / shell.seconds)
    }
}

// MARK: Report

func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
/// The median of `values`, then their range: "1.10x (0.58-2.42)", "9.8 ms (9.1-12.0)".
func spread(_ values: [Double], unit: String = "x", digits: Int = 2) -> String {
    "\(format(median(values), digits))\(unit) (\(format(values.min() ?? 0, digits))-\(format(values.max() ?? 0, digits)))"
}

/// Each light command's median wall time must be under this many milliseconds.
let lightTarget = 20.0

var missed = false
let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
print("bench-query: \(albumCount) albums, \(rounds) rounds, \(runs) runs of each light command, release build, "
      + "SQLite \(Connection.sqliteVersion), load average \(load)")
print("")
print("The query language. library: median µs an iteration in this process; C: bench-query-c, the same SQL;")
print("ratio: median (min-max) of the rounds'")
print(pad("shape", 32) + pad("library", 14) + pad("C API", 14) + "ratio (≤ 1.2x)")
for (number, shape) in shapes.enumerated() {
    let ok = median(libraryRatios[number]) <= 1.2
    missed = missed || !ok
    print(pad(shape.name, 32) + pad(format(median(libraryTimes[number]), 1) + " µs", 14)
          + pad(format(median(cTimes[number]), 1) + " µs", 14) + spread(libraryRatios[number]) + (ok ? " ok" : " MISSED"))
}
print("")
print("Light commands, whole processes: albumstore against the sqlite3 shell doing the same lookup;")
print("wall time median (min-max) of \(runs) runs; ratio: median (min-max) of the runs'; CPU: user + system, median")
print(pad("albumstore", 32) + pad("albumstore", 24) + pad("sqlite3", 24) + pad("ratio", 22) + pad("CPU ours/sqlite3", 20)
      + "target (< \(format(lightTarget, 0)) ms)")
for (number, command) in light.enumerated() {
    let ok = !command.hasTarget || median(lightTimes[number]) < lightTarget
    missed = missed || !ok
    print(pad(command.name, 32) + pad(spread(lightTimes[number], unit: " ms", digits: 1), 24)
          + pad(spread(shellTimes[number], unit: " ms", digits: 1), 24) + pad(spread(lightRatios[number]), 22)
          + pad(format(median(lightCPU[number]), 1) + "/" + format(median(shellCPU[number]), 1) + " ms", 20)
          + (command.hasTarget ? (ok ? "ok" : "MISSED") : "none"))
}
print("")
print("albumstore: \(light.map { $0.ours.dropFirst().joined(separator: " ") }.joined(separator: "; "))")
print("sqlite3: \(light.map { $0.shell.dropFirst().joined(separator: " ") }.joined(separator: "; "))")
print("verdict: " + (missed ? "a target is missed" : "all targets met"))
exit(missed ? 3 : 0)
