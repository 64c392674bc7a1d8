/// How a connection is opened and set up.
public struct ConnectionOptions: Sendable {
    public enum Mode: Sendable { case readOnly, readWrite, readWriteCreate }
    public enum JournalMode: String, Sendable { case wal = "WAL", delete = "DELETE", memory = "MEMORY" }
    public enum Synchronous: String, Sendable { case off = "OFF", normal = "NORMAL", full = "FULL" }

    /// Read-only, read-write, or read-write creating the file (the default).
    public var mode: Mode = .readWriteCreate
    /// Set on open when the connection can write; `nil` leaves the file's journal mode alone
    /// (needed to inspect a file without rewriting its header).
    public var journalMode: JournalMode? = .wal
    /// `NORMAL` is durable in WAL mode except for the last commits before a power loss. Set only
    /// on connections that can write: it means nothing to a read-only or `query_only` one, and
    /// the pragma reads the schema, so on a damaged file it would fail the open itself.
    public var synchronous: Synchronous = .normal
    public var foreignKeys = true
    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    public var busyTimeout: Duration = .seconds(5)
    /// The page cache, in KiB; `nil` keeps SQLite's default (2 MiB), which measured fastest for
    /// scans and bulk inserts here: a larger cache pays for fresh pages of memory as it grows.
    public var cacheSizeKiB: Int? = nil
    /// Lets rows deleted by `REPLACE` fire DELETE triggers (off in SQLite by default).
    public var recursiveTriggers = true
    /// Turns writes into errors (`PRAGMA query_only`), for reader connections.
    public var queryOnly = false
    /// Runs last when the connection opens, for what every connection of a database needs, such
    /// as the SQL functions its queries call (a reader opened later gets them too).
    public var setUp: (@Sendable (Connection) throws(SQLiteError) -> Void)? = nil

    public init() {}

    /// The defaults: read-write-create, WAL, `synchronous=NORMAL`, foreign keys on, 5 s busy timeout.
    public static let `default` = ConnectionOptions()
}
