import AlbumStore
import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `--db PATH` (or `ALBUMSTORE_DB`), `--verbose` and the busy timeout
/// (`ALBUMSTORE_BUSY_TIMEOUT_MS`), shared by every command that opens a library.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The library file. Default: $ALBUMSTORE_DB, else $XDG_DATA_HOME/albumstore/library.sqlite.",
            valueName: "path"))
    var db: String?

    @Flag(help: "When the command fails, also print what SQLite said: its error code, message and statement.")
    var verbose = false

    func validate() throws {
        // An empty --db would otherwise mean the default library: a write meant for a scratch
        // file would land in the user's own.
        if db?.isEmpty == true { throw ValidationError("--db: an empty path names no library file; give the file's path.") }
        _ = try busyTimeout
    }

    /// The path --db, ALBUMSTORE_DB or the XDG default gives, made absolute.
    var path: String { AbsolutePath.of(givenPath) }

    private var givenPath: String {
        if let db, !db.isEmpty { return db }
        if let db = Self.environment("ALBUMSTORE_DB"), !db.isEmpty { return db }
        let dataHome = Self.environment("XDG_DATA_HOME").flatMap { $0.isEmpty ? nil : $0 }
            ?? (Self.environment("HOME") ?? Self.accountHome) + "/.local/share"
        return dataHome + "/albumstore/library.sqlite"
    }

    /// The home folder the user database names, for a process started without `HOME`.
    private static var accountHome: String {
        getpwuid(getuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } } ?? "/"
    }

    /// A variable of the environment. `getenv`, not `ProcessInfo.environment`, which copies every
    /// variable into a dictionary first: a third of a million instructions at each use, in every
    /// command's start.
    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// How long a command waits for another process's write lock: `ALBUMSTORE_BUSY_TIMEOUT_MS`
    /// milliseconds, else 5 s.
    var busyTimeout: Duration {
        get throws {
            guard let text = Self.environment("ALBUMSTORE_BUSY_TIMEOUT_MS"), !text.isEmpty else {
                return .seconds(5)
            }
            guard let milliseconds = Int(text), milliseconds >= 0 else {
                throw ValidationError("ALBUMSTORE_BUSY_TIMEOUT_MS must be a whole number of milliseconds, e.g. 2000 (it is \(text)).")
            }
            return .milliseconds(milliseconds)
        }
    }

    /// Opens the library: `.readOnly` for commands that only read (they work on a read-only
    /// file and create nothing), `.readWrite` for commands that change albums or history,
    /// `.create` for `init`, `add` and `import` (but not `import --dry-run`).
    func openLibrary(_ access: Library.Access) throws -> Library {
        try Library.open(atPath: path, configuration: .init(access: access, busyTimeout: try busyTimeout))
    }
}
