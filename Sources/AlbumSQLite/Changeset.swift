import CSQLite
import FoundationEssentials

/// The changes one piece of work made to some tables, in the changeset format of SQLite's
/// session extension (recorded by `ChangeRecorder`): enough to undo them (`inverted()`) or do
/// them again (`apply(to:)`).
///
/// Related SQLite documentation: https://sqlite.org/sessionintro.html
public struct Changeset: Sendable, Hashable {
    /// The changeset in SQLite's binary format, ready to store in a blob.
    public let data: Data

    public init(data: Data) { self.data = data }

    public var isEmpty: Bool { data.isEmpty }

    /// The changeset that undoes this one: inserts become deletes, deletes inserts, updates swap values.
    public func inverted() throws(SQLiteError) -> Changeset {
        if isEmpty { return self }
        var count: Int32 = 0
        var output: UnsafeMutableRawPointer?
        let code = data.withUnsafeBytes { bytes in
            sqlite3changeset_invert(Int32(bytes.count), UnsafeMutableRawPointer(mutating: bytes.baseAddress), &count, &output)
        }
        try check(code, nil)
        defer { sqlite3_free(output) }
        return Changeset(data: output.map { Data(bytes: $0, count: Int(count)) } ?? Data())
    }

    /// Applies the changes inside a savepoint of `connection`. Any conflict (a row missing, changed
    /// since, or a constraint failing) aborts the whole changeset and throws; nothing is applied then.
    ///
    /// The changes run through the connection's cached statements (`ChangesetApplier`); only a
    /// changeset that does not go through as recorded is handed to `sqlite3changeset_apply`,
    /// which expires every prepared statement of the connection.
    public func apply(to connection: Connection) throws(SQLiteError) {
        if isEmpty { return }
        // The common case through cached statements; the session extension decides the rest.
        let direct = data.withUnsafeBytes { bytes in
            Result { () throws(SQLiteError) in try ChangesetApplier(connection: connection).apply(bytes) }
        }
        if try direct.get() { return }
        try applyWithSessionExtension(to: connection)
    }

    /// `sqlite3changeset_apply`, aborting at the first conflict.
    private func applyWithSessionExtension(to connection: Connection) throws(SQLiteError) {
        var conflict = ConflictReport()
        // On a conflict sqlite3changeset_apply rolls back to its own savepoint, which a recorder
        // on this connection is not told of.
        let mark = connection.database.markRecordings()
        defer { connection.database.releaseRecordings(mark) }
        let code = withUnsafeMutablePointer(to: &conflict) { report in
            data.withUnsafeBytes { bytes in
                sqlite3changeset_apply(
                    connection.handle, Int32(bytes.count), UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                    nil,
                    { context, kind, iterator in
                        context?.assumingMemoryBound(to: ConflictReport.self).pointee.record(kind: kind, iterator: iterator)
                        return SQLITE_CHANGESET_ABORT
                    },
                    report)
            }
        }
        if code == SQLITE_OK { return }
        connection.database.rollBackRecordings(to: mark)
        if let message = conflict.message {
            throw SQLiteError(extendedCode: SQLITE_ABORT, message: message)
        }
        // sqlite3changeset_apply does not set the connection's error for a malformed changeset.
        if sqlite3_errcode(connection.handle) & 0xff == code & 0xff {
            throw SQLiteError(code: code, connection: connection.handle)
        }
        throw SQLiteError(extendedCode: code, message: String(cString: sqlite3_errstr(code)))
    }

    /// Calls `body` with every row change: its table, operation, and old and new column values
    /// (`nil` where the changeset does not carry the column, e.g. unchanged columns of an update).
    ///
    /// A change is lent to `body` for the call only: it points into the changeset's bytes, so it
    /// cannot be kept or returned (copy its table, operation and values instead).
    public func forEach(_ body: (borrowing Change) throws -> Void) throws {
        if isEmpty { return }
        // The iterator reads the bytes in place: it must not outlive withUnsafeBytes (small Data
        // values are stored inline and lent out as a temporary copy).
        try data.withUnsafeBytes { bytes in
            var iterator: OpaquePointer?
            try check(sqlite3changeset_start(&iterator, Int32(bytes.count), UnsafeMutableRawPointer(mutating: bytes.baseAddress)), nil)
            guard let iterator else {
                throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "sqlite3changeset_start gave no iterator")
            }
            var finalized = false
            defer { if !finalized { sqlite3changeset_finalize(iterator) } }
            var code = sqlite3changeset_next(iterator)
            while code == SQLITE_ROW {
                try body(Change(iterator: iterator))
                code = sqlite3changeset_next(iterator)
            }
            finalized = true
            let finalizeCode = sqlite3changeset_finalize(iterator)
            if code != SQLITE_DONE { throw SQLiteError(extendedCode: code, message: String(cString: sqlite3_errstr(code))) }
            try check(finalizeCode, nil)
        }
    }

    /// One row change in a changeset, lent to the `forEach` body that receives it.
    ///
    /// It reads the iterator `forEach` owns, which moves on after the body returns: being
    /// non-copyable, a change cannot outlive that call.
    public struct Change: ~Copyable {
        public let table: String
        public let operation: RowChange.Operation
        private let iterator: OpaquePointer
        private let columnCount: Int32

        init(iterator: OpaquePointer) {
            var table: UnsafePointer<CChar>?
            var columns: Int32 = 0
            var kind: Int32 = 0
            var indirect: Int32 = 0
            sqlite3changeset_op(iterator, &table, &columns, &kind, &indirect)
            self.table = table.map { String(cString: $0) } ?? ""
            self.operation = kind == SQLITE_INSERT ? .insert : kind == SQLITE_DELETE ? .delete : .update
            self.iterator = iterator
            self.columnCount = columns
        }

        /// The value of column `column` before the change (deletes and updates).
        public func old(_ column: Int32) -> SQLiteValue? { value(column, sqlite3changeset_old) }
        /// The value of column `column` after the change (inserts and updates).
        public func new(_ column: Int32) -> SQLiteValue? { value(column, sqlite3changeset_new) }

        private func value(
            _ column: Int32,
            _ read: (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
        ) -> SQLiteValue? {
            guard column < columnCount else { return nil }
            var value: OpaquePointer?
            guard read(iterator, column, &value) == SQLITE_OK, let value else { return nil }
            return SQLiteValue(value)
        }
    }
}

/// The first conflict met while applying a changeset, for the error message.
private struct ConflictReport {
    var message: String?

    mutating func record(kind: Int32, iterator: OpaquePointer?) {
        guard message == nil else { return }
        var table: UnsafePointer<CChar>?
        var columns: Int32 = 0
        var operation: Int32 = 0
        var indirect: Int32 = 0
        sqlite3changeset_op(iterator, &table, &columns, &operation, &indirect)
        let name = table.map { String(cString: $0) } ?? "?"
        let reason = switch kind {
        case SQLITE_CHANGESET_DATA: "the row changed since"
        case SQLITE_CHANGESET_NOTFOUND: "the row no longer exists"
        case SQLITE_CHANGESET_CONFLICT: "a row with the same key exists"
        case SQLITE_CHANGESET_CONSTRAINT: "a constraint would fail"
        default: "conflict \(kind)"
        }
        message = "cannot apply change to \(name): \(reason)"
    }
}

extension SQLiteValue {
    /// Copies an unprotected `sqlite3_value`.
    init(_ value: OpaquePointer) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            let count = Int(sqlite3_value_bytes(value))
            self = .text(sqlite3_value_text(value).map {
                String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
            } ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            self = .blob(sqlite3_value_blob(value).map { Data(bytes: $0, count: count) } ?? Data())
        default: self = .null
        }
    }
}
