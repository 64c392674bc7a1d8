import CSQLite

/// The first bytes of a database file, read through a file handle of SQLite's own.
///
/// A process must never open and close a database file itself while it holds SQLite
/// connections on it: on POSIX, closing any descriptor of a file drops every lock the process
/// holds on that file, another process then believes it is the last connection and deletes the
/// write-ahead log, and acknowledged commits are lost. SQLite keeps its descriptors open while
/// any connection of the process holds a lock (it defers the close), so reading through its
/// handle is safe. Related SQLite documentation: https://sqlite.org/howtocorrupt.html#posix_close_bug
public enum DatabaseFileHeader {
    /// Up to `count` bytes from the start of the file at `path` (zeros past its end), read without
    /// starting a transaction: nothing is locked, created or changed.
    /// - Throws: `SQLiteError` when SQLite cannot open or read the file.
    public static func read(path: String, count: Int) throws(SQLiteError) -> [UInt8] {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        defer { sqlite3_close_v2(handle) }
        guard code == SQLITE_OK, let handle else { throw SQLiteError(code: code, connection: handle) }
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
              let file, let methods = file.pointee.pMethods, let xRead = methods.pointee.xRead
        else { throw SQLiteError(extendedCode: SQLITE_IOERR, message: "cannot reach the file of \(path)") }
        var bytes = [UInt8](repeating: 0, count: count)
        let result = bytes.withUnsafeMutableBytes { xRead(file, $0.baseAddress, Int32(count), 0) }
        // A short read (SQLITE_IOERR_SHORT_READ) fills the rest with zeros.
        let shortRead = SQLITE_IOERR | (2 << 8)
        guard result == SQLITE_OK || result == shortRead else {
            throw SQLiteError(extendedCode: result, message: "cannot read the header of \(path)")
        }
        return bytes
    }
}
