import CSQLite
import FoundationEssentials

/// A Swift value that can be bound to a statement parameter.
///
/// Conformances bind straight from the value's own storage; SQLite copies text and blobs
/// once (`SQLITE_TRANSIENT`), so no intermediate buffers are made.
public protocol Bindable {
    /// Binds the value to parameter `index` (1-based, as in SQLite) and returns SQLite's result code.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
}

extension Int64: Bindable {
    @inlinable public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self)
    }
}

extension Int: Bindable {
    @inlinable public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, Int64(self))
    }
}

extension Int32: Bindable {
    @inlinable public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int(statement, index, self)
    }
}

extension Bool: Bindable {
    @inlinable public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int(statement, index, self ? 1 : 0)
    }
}

extension Double: Bindable {
    @inlinable public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_double(statement, index, self)
    }
}

extension String: Bindable {
    @inlinable public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        var text = self
        return text.withUTF8 { utf8 in
            // An empty buffer may have no address, and a NULL pointer would bind NULL.
            guard let base = utf8.baseAddress, !utf8.isEmpty else {
                return sqlite3_bind_text(statement, index, "", 0, nil)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                sqlite3_bind_text64(statement, index, $0, UInt64(utf8.count), csqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
    }
}

extension Substring: Bindable {
    @inlinable public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        String(self).bind(to: statement, at: index)
    }
}

extension UnsafeRawBufferPointer: Bindable {
    /// Binds the bytes as a blob; an empty buffer binds an empty blob, not NULL.
    @inlinable public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        guard let base = baseAddress, !isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
        return sqlite3_bind_blob64(statement, index, base, UInt64(count), csqlite_transient())
    }
}

extension Data: Bindable {
    @inlinable public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        withUnsafeBytes { $0.bind(to: statement, at: index) }
    }
}

extension Array: Bindable where Element == UInt8 {
    @inlinable public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        withUnsafeBytes { $0.bind(to: statement, at: index) }
    }
}

extension Optional: Bindable where Wrapped: Bindable {
    /// `nil` binds SQL NULL.
    @inlinable public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .none: sqlite3_bind_null(statement, index)
        case .some(let value): value.bind(to: statement, at: index)
        }
    }
}
