// What every Swift contender shares, so that they differ only in the database layer:
// the command line, the schema and SQL, the generated rows, the clock and the read checksum.
// bench-core-c/main.c repeats the same definitions in C; keep the two in step.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one run of a contender does.
public enum BenchMode: String, Sendable {
    /// Creates the table and inserts the rows in one transaction, one prepared statement reused.
    case insert
    /// Reads every column of every row of the table an insert run made.
    case read
}

/// The command line every contender takes: `insert|read DBPATH N`.
public struct BenchArguments: Sendable {
    public var mode: BenchMode
    public var path: String
    public var rows: Int

    /// Parses `CommandLine.arguments`, or prints the usage on stderr and exits 2.
    public static func parse() -> BenchArguments {
        let arguments = CommandLine.arguments
        guard arguments.count == 4,
              let mode = BenchMode(rawValue: arguments[1]),
              let rows = Int(arguments[3]), rows > 0
        else {
            let name = arguments.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "bench-core"
            fail("usage: \(name) insert|read DBPATH N  (prints the timed seconds on stdout)", status: 2)
        }
        return BenchArguments(mode: mode, path: arguments[2], rows: rows)
    }
}

/// The SQL all three contenders run.
public enum BenchSQL {
    public static let schema = """
        CREATE TABLE albums(id INTEGER PRIMARY KEY, title TEXT NOT NULL, artist TEXT NOT NULL, \
        genre TEXT, year INTEGER, cover_url TEXT)
        """
    public static let insert = "INSERT INTO albums(title, artist, genre, year, cover_url) VALUES (?, ?, ?, ?, ?)"
    public static let select = "SELECT id, title, artist, genre, year, cover_url FROM albums"
    public static let count = "SELECT count(*) FROM albums"
}

/// An album as a reader gets it: owned Swift values.
public struct Album {
    public var id: Int64
    public var title: String
    public var artist: String
    public var genre: String?
    public var year: Int64?
    public var coverURL: String?

    @inlinable
    public init(id: Int64, title: String, artist: String, genre: String?, year: Int64?, coverURL: String?) {
        self.id = id
        self.title = title
        self.artist = artist
        self.genre = genre
        self.year = year
        self.coverURL = coverURL
    }
}

/// One row to insert, built before the clock starts.
public struct AlbumRow: Sendable {
    public var title: String
    public var artist: String
    public var genre: String
    public var year: Int64
    public var coverURL: String
}

/// The 12 genres the rows cycle through.
public let benchGenres = [
    "Rock", "Pop", "Jazz", "Blues", "Classical", "Electronic",
    "Hip-Hop", "Folk", "Country", "Reggae", "Soul", "Metal",
]

/// The same deterministic rows in every contender: row `i` (0-based) is
/// ("Album Title i", "Artist i%5000", genres[i%12], 1950 + i%75, "https://covers.example.com/i.jpg").
public func makeAlbumRows(count: Int) -> [AlbumRow] {
    var rows: [AlbumRow] = []
    rows.reserveCapacity(count)
    for i in 0..<count {
        rows.append(AlbumRow(
            title: "Album Title \(i)",
            artist: "Artist \(i % 5000)",
            genre: benchGenres[i % 12],
            year: Int64(1950 + i % 75),
            coverURL: "https://covers.example.com/\(i).jpg"
        ))
    }
    return rows
}

/// The read checksum, computed the same way by every contender from the values it materialised:
/// the sum over rows of id + year + the byte length and first byte of each text (0 for NULL).
/// It keeps the optimiser from dropping the reads and lets the script check that all contenders
/// read the same data.
@inlinable
public func albumChecksum(id: Int64, title: String, artist: String, genre: String?, year: Int64?, coverURL: String?) -> UInt64 {
    // Through the contiguous bytes, as C reads text[0]: `utf8.first` walks String's index
    // machinery, which cost the Swift contenders about 100 instructions a row that are the
    // benchmark's, not the layer's.
    @inline(__always) func text(_ string: String?) -> UInt64 {
        guard let utf8 = string?.utf8 else { return 0 }
        return utf8.withContiguousStorageIfAvailable { UInt64($0.count) &+ UInt64($0.first ?? 0) }
            ?? UInt64(utf8.count) &+ UInt64(utf8.first ?? 0)
    }
    return UInt64(bitPattern: id) &+ UInt64(bitPattern: year ?? 0)
        &+ text(title) &+ text(artist) &+ text(genre) &+ text(coverURL)
}

/// How long the timed part took: wall-clock seconds, and the process's CPU seconds in user
/// space and in the kernel over the same span (the kernel share is mostly file I/O).
public struct Measurement: Sendable {
    public var seconds: Double
    public var userSeconds: Double
    public var systemSeconds: Double

    public init(seconds: Double, userSeconds: Double, systemSeconds: Double) {
        self.seconds = seconds
        self.userSeconds = userSeconds
        self.systemSeconds = systemSeconds
    }
}

/// Runs `body` and returns how long it took, with its result.
@inlinable
public func measure<T>(_ body: () throws -> T) rethrows -> (Measurement, T) {
    let clock = ContinuousClock()
    let usageBefore = cpuTime()
    let start = clock.now
    let result = try body()
    let elapsed = start.duration(to: clock.now)
    let usageAfter = cpuTime()
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (Measurement(
        seconds: seconds,
        userSeconds: usageAfter.user - usageBefore.user,
        systemSeconds: usageAfter.system - usageBefore.system
    ), result)
}

/// The CPU seconds this process has used so far, in user space and in the kernel.
@usableFromInline
func cpuTime() -> (user: Double, system: Double) {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)  // glibc imports RUSAGE_SELF as an enum case
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return (seconds(usage.ru_utime), seconds(usage.ru_stime))
}

/// Prints the wall-clock seconds on stdout, the only thing a contender writes there, and the
/// CPU seconds on stderr, both with 6 decimals as the C contender does.
public func report(_ measurement: Measurement) {
    note("cpu user=\(fixed(measurement.userSeconds)) sys=\(fixed(measurement.systemSeconds))")
    print(fixed(measurement.seconds))
}

/// `value` with 6 decimals (no Foundation formatting here).
func fixed(_ value: Double) -> String {
    let micros = Int((max(0, value) * 1e6).rounded())
    let fraction = String(micros % 1_000_000)
    return "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
}

/// Writes one line on stderr.
public func note(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}

/// Writes `message` on stderr and exits with `status`.
public func fail(_ message: String, status: Int32 = 1) -> Never {
    note(message)
    exit(status)
}
