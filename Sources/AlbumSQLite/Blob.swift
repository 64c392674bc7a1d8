import CSQLite
import FoundationEssentials

/// An open handle on one blob value, read and written in chunks without loading it whole.
///
/// The blob's size is fixed: create it with `zeroblob(n)` and then write into it. Any change to
/// the row expires the handle (`SQLITE_ABORT`). An open handle keeps its transaction open, so
/// close it (or let it go) promptly. It keeps its connection's database handle open, so it
/// works on after the `Connection` object is gone.
/// Related SQLite documentation: https://sqlite.org/c3ref/blob_open.html
public final class Blob {
    private let handle: OpaquePointer
    /// Keeps the sqlite3* open until the blob is closed (in deinit, before this is released).
    private let database: ConnectionHandle
    private var connection: OpaquePointer { database.sqlite }

    init(database: ConnectionHandle, table: String, column: String, rowID: Int64, writable: Bool) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_blob_open(database.sqlite, "main", table, column, rowID, writable ? 1 : 0, &handle)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(code: code, connection: database.sqlite)
            sqlite3_blob_close(handle)
            throw error
        }
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_blob_close(handle) }

    /// The blob's size in bytes.
    public var count: Int { Int(sqlite3_blob_bytes(handle)) }

    /// Reads `count` bytes starting at `offset` into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SQLiteError) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        try check(sqlite3_blob_read(handle, base, Int32(buffer.count), Int32(offset)), connection)
    }

    /// The whole blob, read straight into the returned `Data` (not zero-filled first).
    public func data() throws -> Data {
        let count = self.count
        guard count > 0 else { return try read(count: 0, at: 0) }
        guard let bytes = sqlite3_malloc64(sqlite3_uint64(count)) else { throw SQLiteError(extendedCode: SQLITE_NOMEM, message: "out of memory for a blob of \(count) bytes") }
        do { try read(into: UnsafeMutableRawBufferPointer(start: bytes, count: count), at: 0) } catch {
            sqlite3_free(bytes)
            throw error
        }
        return Data(bytesNoCopy: bytes, count: count, deallocator: .custom { bytes, _ in sqlite3_free(bytes) })
    }

    /// Reads up to `count` bytes starting at `offset` (fewer at the end of the blob).
    public func read(count: Int, at offset: Int) throws -> Data {
        let length = max(0, min(count, self.count - offset))
        if length == 0 {
            // A zero-byte read succeeds on a live handle and fails with SQLITE_ABORT on an expired
            // one, whose size reads as 0: without it an expired handle would look like an empty blob.
            var byte: UInt8 = 0
            try check(sqlite3_blob_read(handle, &byte, 0, 0), connection)
            return Data()
        }
        var data = Data(count: length)
        try data.withUnsafeMutableBytes { try read(into: $0, at: offset) }
        return data
    }

    /// Writes `bytes` starting at `offset`; the blob cannot grow.
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(SQLiteError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        try check(sqlite3_blob_write(handle, base, Int32(bytes.count), Int32(offset)), connection)
    }

    /// Writes `data` starting at `offset`; the blob cannot grow.
    public func write(_ data: Data, at offset: Int) throws {
        try data.withUnsafeBytes { try write($0, at: offset) }
    }

    /// Points the handle at the same column of another row, cheaper than opening a new one.
    public func reopen(rowID: Int64) throws(SQLiteError) {
        try check(sqlite3_blob_reopen(handle, rowID), connection)
    }
}

extension Connection {
    /// Opens the blob in `table.column` of row `rowID` for incremental I/O.
    public func openBlob(table: String, column: String, rowID: Int64, writable: Bool = false) throws(SQLiteError) -> Blob {
        try Blob(database: database, table: table, column: column, rowID: rowID, writable: writable)
    }
}
