import CSQLite
import Foundation

/// A Swift type that can be read from a result column.
public protocol ColumnDecodable {
    /// Reads column `column` (0-based) of the current row; `nil` when the value is SQL NULL.
    static func decode(from statement: OpaquePointer, at column: Int32) -> Self?
}

extension ColumnDecodable {
    @inlinable @inline(__always)
    static func isNull(_ statement: OpaquePointer, _ column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }
}

extension Int64: ColumnDecodable {
    @inlinable public static func decode(from statement: OpaquePointer, at column: Int32) -> Int64? {
        // NULL reads as 0, so only a 0 needs the extra call asking for the type.
        let value = sqlite3_column_int64(statement, column)
        return value == 0 && isNull(statement, column) ? nil : value
    }
}

extension Int: ColumnDecodable {
    @inlinable public static func decode(from statement: OpaquePointer, at column: Int32) -> Int? {
        Int64.decode(from: statement, at: column).map(Int.init)
    }
}

extension Int32: ColumnDecodable {
    @inlinable public static func decode(from statement: OpaquePointer, at column: Int32) -> Int32? {
        isNull(statement, column) ? nil : sqlite3_column_int(statement, column)
    }
}

extension Bool: ColumnDecodable {
    @inlinable public static func decode(from statement: OpaquePointer, at column: Int32) -> Bool? {
        isNull(statement, column) ? nil : sqlite3_column_int64(statement, column) != 0
    }
}

extension Double: ColumnDecodable {
    @inlinable public static func decode(from statement: OpaquePointer, at column: Int32) -> Double? {
        isNull(statement, column) ? nil : sqlite3_column_double(statement, column)
    }
}

extension String: ColumnDecodable {
    /// Reads the text with its byte length, so embedded NUL characters survive.
    @inlinable public static func decode(from statement: OpaquePointer, at column: Int32) -> String? {
        guard let text = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }
}

extension Data: ColumnDecodable {
    @inlinable public static func decode(from statement: OpaquePointer, at column: Int32) -> Data? {
        if isNull(statement, column) { return nil }
        // Ask for the pointer first: sqlite3_column_bytes is only valid after it.
        let bytes = sqlite3_column_blob(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}

extension Array: ColumnDecodable where Element == UInt8 {
    @inlinable public static func decode(from statement: OpaquePointer, at column: Int32) -> [UInt8]? {
        if isNull(statement, column) { return nil }
        let bytes = sqlite3_column_blob(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        guard let bytes, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}

extension Optional: ColumnDecodable where Wrapped: ColumnDecodable {
    /// Always succeeds: SQL NULL becomes `.some(nil)`.
    @inlinable public static func decode(from statement: OpaquePointer, at column: Int32) -> Wrapped?? {
        .some(Wrapped.decode(from: statement, at: column))
    }
}
