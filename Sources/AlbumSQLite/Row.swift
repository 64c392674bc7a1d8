import CSQLite

/// The current row of a statement, lent to a closure: columns read by 0-based index or by name.
///
/// A row is a view, not a copy, and it cannot be copied: the statement lends it to the closure
/// of `forEach`, `map`, `first` or `withCurrentRow` for the call only, so it cannot be kept or
/// returned (read the values instead; `values` copies them all). Should the statement move on
/// while the closure still runs (it steps or resets), reading the row traps rather than
/// returning another row's values.
public struct Row: ~Copyable {
    /// Held strongly, so a row can never read a freed statement.
    @usableFromInline let statement: Statement
    /// The statement's generation when it lent this row. `forEach` lends one `Row` value for
    /// all rows, moving this on for each: one retain of the statement per run, not per row.
    @usableFromInline var generation: UInt64

    @inlinable
    init(statement: Statement, generation: UInt64) {
        self.statement = statement
        self.generation = generation
    }

    // Not needed for itself: without a deinit, Swift 6.3's optimizer may build a Row from a
    // borrowed statement reference in serialized (@inlinable) code, which then crashes the
    // compiler of any module inlining it ("Cannot initialize a nonCopyable type with a
    // guaranteed value"). With one, a Row always owns its reference.
    @inlinable deinit {}

    /// The statement's handle, once it is checked that the statement still stands on this row.
    @inlinable
    var handle: OpaquePointer {
        @inline(__always) get {
            if generation != statement.position.pointee.generation { Row.usedAfterStatementMovedOn() }
            return statement.handle
        }
    }

    @usableFromInline @inline(never)
    static func usedAfterStatementMovedOn() -> Never {
        fatalError("a Row was used after its statement moved on: copy the values inside the closure")
    }

    /// The value of column `index`; throws when it is NULL and `T` is not optional.
    @inlinable @inline(__always)
    public subscript<T: ColumnDecodable>(_ index: Int32, as type: T.Type = T.self) -> T {
        get throws(SQLiteError) {
            guard let value = T.decode(from: handle, at: index) else { throw nullOrMissing(index, T.self) }
            return value
        }
    }

    /// Why column `index` did not decode as `type`: out of range, or NULL.
    @usableFromInline
    func nullOrMissing<T>(_ index: Int32, _ type: T.Type) -> SQLiteError {
        guard index >= 0, index < count else {
            return SQLiteError(extendedCode: SQLITE_RANGE, message: "no column \(index)", sql: statement.sql)
        }
        return SQLiteError.mismatch("column \(statement.columnName(at: index)) is NULL, expected \(T.self)", sql: statement.sql)
    }

    /// The value of the column named `name` (case-insensitive).
    @inlinable
    public subscript<T: ColumnDecodable>(_ name: String, as type: T.Type = T.self) -> T {
        get throws(SQLiteError) { try self[try statement.columnIndex(name), as: T.self] }
    }

    /// Lends the text of column `index` to `body` as UTF-8 bytes, without making a `String`;
    /// `nil` when the column is NULL.
    ///
    /// The bytes are SQLite's own, valid only during the call, and not checked to be valid UTF-8.
    /// A number is lent as its text, as `sqlite3_column_text` gives it.
    @inlinable
    public func withUTF8<R, E: Error>(at index: Int32, _ body: (UnsafeBufferPointer<UInt8>?) throws(E) -> R) throws(E) -> R {
        let value = sqlite3_column_value(handle, index)
        // Ask for the text first: the byte count is only valid after it.
        guard let text = sqlite3_value_text(value) else { return try body(nil) }
        return try body(UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
    }

    /// Whether column `index` holds SQL NULL.
    public func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// The number of columns.
    public var count: Int32 { sqlite3_column_count(handle) }

    /// Every column as a dynamic value, in order: an owned copy that outlives the row.
    public var values: [SQLiteValue] {
        let handle = handle
        return (0..<sqlite3_column_count(handle)).map { SQLiteValue.decode(from: handle, at: $0) ?? .null }
    }
}
