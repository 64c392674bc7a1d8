import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An error reported by SQLite, with its result codes, its message and the SQL that failed.
///
/// `code` is the primary result code (`SQLITE_CONSTRAINT`, `SQLITE_BUSY`, ...), `extendedCode`
/// the extended one (`SQLITE_CONSTRAINT_UNIQUE`, ...): extended codes are always enabled.
/// Related SQLite documentation: https://sqlite.org/rescode.html
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The extended result code; its low byte is the primary code.
    public var extendedCode: Int32
    /// SQLite's message, e.g. "UNIQUE constraint failed: albums.external_id".
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?
    /// For an I/O error (`SQLITE_IOERR`, `SQLITE_CANTOPEN`, `SQLITE_FULL`), the `errno` of the
    /// system call that failed (`sqlite3_system_errno`), e.g. `ENOSPC`; else 0.
    public var systemErrno: Int32 = 0

    public init(extendedCode: Int32, message: String, sql: String? = nil, systemErrno: Int32 = 0) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
    }

    /// Reads the error state of a connection after a call returned `code`.
    @usableFromInline
    init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        // The connection's error code can be stale (e.g. after sqlite3_backup_step);
        // trust it only when it belongs to the same primary code.
        self.extendedCode = (extended & 0xff) == (code & 0xff) ? extended : code
        let text = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        self.message = text ?? String(cString: sqlite3_errstr(code))
        self.sql = sql
        // Only I/O errors set it; after any other it is a stale value.
        if [SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_FULL].contains(code & 0xff) {
            systemErrno = connection.map { sqlite3_system_errno($0) } ?? 0
        }
    }

    /// The primary result code, e.g. `SQLITE_CONSTRAINT` (19).
    public var code: Int32 { extendedCode & 0xff }

    /// A constraint failed: UNIQUE, NOT NULL, CHECK, FOREIGN KEY... (`SQLITE_CONSTRAINT`).
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }
    /// Another connection holds a lock the statement needed (`SQLITE_BUSY` or `SQLITE_LOCKED`):
    /// retrying later may succeed.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// The file is not a SQLite database, or is encrypted (`SQLITE_NOTADB`).
    public var isNotADatabase: Bool { code == SQLITE_NOTADB }
    /// The database cannot be written: opened read-only, a read-only file or directory, or
    /// `query_only` (`SQLITE_READONLY`).
    public var isReadOnly: Bool { code == SQLITE_READONLY }
    /// The file is damaged (`SQLITE_CORRUPT`).
    public var isCorrupt: Bool { code == SQLITE_CORRUPT }
    /// The disk is full: `SQLITE_FULL`, or an I/O error whose system call failed with `ENOSPC`
    /// (SQLite reports a shared-memory file it cannot grow as `SQLITE_IOERR_SHMSIZE`).
    public var isDiskFull: Bool { code == SQLITE_FULL || (code == SQLITE_IOERR && systemErrno == ENOSPC) }
    /// The WAL's shared-memory file (`-shm`) could not be grown or mapped
    /// (`SQLITE_IOERR_SHMSIZE`, `SQLITE_IOERR_SHMMAP`): a full disk, most often.
    public var isSharedMemoryFailure: Bool {
        extendedCode == SQLITE_IOERR | 19 << 8 || extendedCode == SQLITE_IOERR | 21 << 8
    }

    public var description: String {
        let statement = sql.map { " in `\($0)`" } ?? ""
        return "SQLite error \(extendedCode) (\(String(cString: sqlite3_errstr(extendedCode)))): \(message)\(statement)"
    }
}

extension SQLiteError {
    /// SQLite's primary result codes, to compare with `code` without importing SQLite's C header.
    /// Related SQLite documentation: https://sqlite.org/rescode.html
    public enum ResultCode {
        public static let error: Int32 = SQLITE_ERROR
        public static let abort: Int32 = SQLITE_ABORT
        public static let busy: Int32 = SQLITE_BUSY
        /// The extended code of a wait inside this process (for the writer, or for a reader
        /// connection) that outlasted the busy timeout.
        public static let busyTimeout: Int32 = SQLITE_BUSY | 3 << 8  // SQLITE_BUSY_TIMEOUT
        public static let locked: Int32 = SQLITE_LOCKED
        public static let readOnly: Int32 = SQLITE_READONLY
        public static let interrupt: Int32 = SQLITE_INTERRUPT
        public static let ioError: Int32 = SQLITE_IOERR
        public static let corrupt: Int32 = SQLITE_CORRUPT
        public static let full: Int32 = SQLITE_FULL
        public static let cannotOpen: Int32 = SQLITE_CANTOPEN
        public static let constraint: Int32 = SQLITE_CONSTRAINT
        public static let mismatch: Int32 = SQLITE_MISMATCH
        public static let misuse: Int32 = SQLITE_MISUSE
        public static let range: Int32 = SQLITE_RANGE
        public static let notADatabase: Int32 = SQLITE_NOTADB
    }
}

extension SQLiteError {
    /// A value that could not be read as the type asked for (e.g. NULL read as a String).
    @usableFromInline
    static func mismatch(_ message: String, sql: String?) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_MISMATCH, message: message, sql: sql)
    }
}

/// Throws when `code` is not `SQLITE_OK`.
@inlinable @inline(__always)
func check(_ code: Int32, _ connection: OpaquePointer?, sql: String? = nil) throws(SQLiteError) {
    if code != SQLITE_OK { throw SQLiteError(code: code, connection: connection, sql: sql) }
}
