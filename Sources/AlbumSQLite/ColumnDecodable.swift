import CSQLite
import FoundationEssentials

/// A Swift type that can be read from a result column.
///
/// Decoders read an `sqlite3_value`, got once per read with `sqlite3_column_value`: the
/// `sqlite3_column_*` accessors would look the column up again for every call, and a text needs
/// two (its bytes and its length). That value is "unprotected" in SQLite's terms, which only
/// matters with a connection mutex; connections here are opened with `SQLITE_OPEN_NOMUTEX` and
/// have none (https://sqlite.org/c3ref/value.html).
public protocol ColumnDecodable {
    /// Reads `value`, a column of the current row; `nil` when it is SQL NULL.
    static func decode(from value: OpaquePointer) -> Self?
}

extension ColumnDecodable {
    /// Reads column `column` (0-based) of `statement`'s current row; `nil` when it is SQL NULL.
    @inlinable @inline(__always)
    public static func decode(from statement: OpaquePointer, at column: Int32) -> Self? {
        decode(from: sqlite3_column_value(statement, column))
    }
}

@inlinable @inline(__always)
func isNull(_ value: OpaquePointer) -> Bool {
    sqlite3_value_type(value) == SQLITE_NULL
}

extension Int64: ColumnDecodable {
    @inlinable public static func decode(from value: OpaquePointer) -> Int64? {
        // NULL reads as 0, so only a 0 needs the extra call asking for the type.
        let integer = sqlite3_value_int64(value)
        return integer == 0 && isNull(value) ? nil : integer
    }
}

extension Int: ColumnDecodable {
    @inlinable public static func decode(from value: OpaquePointer) -> Int? {
        Int64.decode(from: value).map(Int.init)
    }
}

extension Int32: ColumnDecodable {
    @inlinable public static func decode(from value: OpaquePointer) -> Int32? {
        isNull(value) ? nil : sqlite3_value_int(value)
    }
}

extension Bool: ColumnDecodable {
    @inlinable public static func decode(from value: OpaquePointer) -> Bool? {
        isNull(value) ? nil : sqlite3_value_int64(value) != 0
    }
}

extension Double: ColumnDecodable {
    @inlinable public static func decode(from value: OpaquePointer) -> Double? {
        isNull(value) ? nil : sqlite3_value_double(value)
    }
}

extension String: ColumnDecodable {
    /// Reads the text with its byte length, so embedded NUL characters survive. Invalid UTF-8 is
    /// repaired with U+FFFD, as `String(decoding:as:)` does.
    @inlinable @inline(__always) public static func decode(from value: OpaquePointer) -> String? {
        guard let text = sqlite3_value_text(value) else { return nil }
        let count = Int(sqlite3_value_bytes(value))
        // Up to 15 bytes fit in a small string (on 64-bit platforms), which this initializer
        // fills in place: no allocation and, for ASCII, no separate validation pass. For such a
        // text that is about half the instructions of `String(decoding:as:)`; for a longer one,
        // which needs storage anyway, `String(decoding:as:)` is the cheaper of the two.
        if count <= 15 {
            return String(unsafeUninitializedCapacity: count) { buffer in
                guard let target = buffer.baseAddress, buffer.count >= count else { return 0 }
                copyBytes(from: text, to: target, count: count)
                return count
            }
        }
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}

extension Data: ColumnDecodable {
    @inlinable public static func decode(from value: OpaquePointer) -> Data? {
        if isNull(value) { return nil }
        // Ask for the pointer first: sqlite3_value_bytes is only valid after it.
        let bytes = sqlite3_value_blob(value)
        let count = Int(sqlite3_value_bytes(value))
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}

extension Array: ColumnDecodable where Element == UInt8 {
    @inlinable public static func decode(from value: OpaquePointer) -> [UInt8]? {
        if isNull(value) { return nil }
        let bytes = sqlite3_value_blob(value)
        let count = Int(sqlite3_value_bytes(value))
        guard let bytes, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}

extension Optional: ColumnDecodable where Wrapped: ColumnDecodable {
    /// Always succeeds: SQL NULL becomes `.some(nil)`.
    @inlinable @inline(__always) public static func decode(from value: OpaquePointer) -> Wrapped?? {
        .some(Wrapped.decode(from: value))
    }
}
