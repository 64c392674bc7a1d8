import CSQLite

/// One SQLite value, compared exactly: text and blobs by their bytes, reals by their bits (so
/// that a real and the integer of the same value differ). A -0.0 read back is 0.0: SQL and the
/// session extension hold the two equal, so no changeset tells them apart (work still binds
/// -0.0).
enum Value: Hashable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(UInt64)
    case text([UInt8])
    case blob([UInt8])
    /// A blob of zeros bound with `sqlite3_bind_zeroblob` (read back as `.blob`).
    case zeroblob(Int32)

    static func real(_ value: Double) -> Value { .real(value.bitPattern) }

    /// Copies an `sqlite3_value`.
    init(_ value: OpaquePointer) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT:
            let real = sqlite3_value_double(value)
            self = .real(real == 0 ? 0 : real)
        case SQLITE_TEXT:
            let start = sqlite3_value_text(value)
            self = .text(start.map { Array(UnsafeBufferPointer(start: $0, count: Int(sqlite3_value_bytes(value)))) } ?? [])
        case SQLITE_BLOB:
            let start = sqlite3_value_blob(value)?.assumingMemoryBound(to: UInt8.self)
            self = .blob(start.map { Array(UnsafeBufferPointer(start: $0, count: Int(sqlite3_value_bytes(value)))) } ?? [])
        default: self = .null
        }
    }

    /// Column `column` of the statement's current row.
    init(column: Int32, of statement: OpaquePointer) {
        self.init(sqlite3_column_value(statement, column))
    }

    func bind(to statement: OpaquePointer, at index: Int32) {
        switch self {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let value): sqlite3_bind_int64(statement, index, value)
        case .real(let bits): sqlite3_bind_double(statement, index, Double(bitPattern: bits))
        case .text(let bytes): sqlite3_bind_text(statement, index, bytes.map { CChar(bitPattern: $0) }, Int32(bytes.count), csqlite_transient())
        case .blob(let bytes): sqlite3_bind_blob(statement, index, bytes, Int32(bytes.count), csqlite_transient())
        case .zeroblob(let count): sqlite3_bind_zeroblob(statement, index, count)
        }
    }

    var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): "\(value)"
        case .real(let bits): "\(Double(bitPattern: bits))r"
        case .text(let bytes): "'" + bytes.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined() + "'"
        case .blob(let bytes): "x'\(bytes.map { String($0, radix: 16) }.joined())'"
        case .zeroblob(let count): "zeroblob(\(count))"
        }
    }
}
