import CSQLite

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

    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
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
    }

    /// The primary result code, e.g. `SQLITE_CONSTRAINT` (19).
    public var code: Int32 { extendedCode & 0xff }

    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    public var description: String {
        let statement = sql.map { " in `\($0)`" } ?? ""
        return "SQLite error \(extendedCode) (\(String(cString: sqlite3_errstr(extendedCode)))): \(message)\(statement)"
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
