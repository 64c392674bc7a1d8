import CSQLite

/// The current row of a statement: columns read by 0-based index or by name.
///
/// A row is a view, not a copy: read what you need before the statement steps again, and do
/// not keep it past the statement's life. It holds its statement unretained, which spares a
/// retain and a release per row of a scan.
public struct Row {
    @usableFromInline unowned(unsafe) let statement: Statement

    @usableFromInline init(statement: Statement) { self.statement = statement }

    /// The value of column `index`; throws when it is NULL and `T` is not optional.
    @inlinable @inline(__always)
    public subscript<T: ColumnDecodable>(_ index: Int32, as type: T.Type = T.self) -> T {
        get throws(SQLiteError) {
            guard let value = T.decode(from: statement.handle, at: index) else {
                guard index >= 0, index < statement.columnCount else {
                    throw SQLiteError(extendedCode: SQLITE_RANGE, message: "no column \(index)", sql: statement.sql)
                }
                throw SQLiteError.mismatch(
                    "column \(statement.columnName(at: index)) is NULL, expected \(T.self)", sql: statement.sql)
            }
            return value
        }
    }

    /// The value of the column named `name` (case-insensitive).
    @inlinable
    public subscript<T: ColumnDecodable>(_ name: String, as type: T.Type = T.self) -> T {
        get throws(SQLiteError) { try self[try statement.columnIndex(name), as: T.self] }
    }

    /// Whether column `index` holds SQL NULL.
    public func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(statement.handle, index) == SQLITE_NULL
    }

    /// The number of columns.
    public var count: Int32 { statement.columnCount }

    /// Every column as a dynamic value, in order.
    public var values: [SQLiteValue] {
        (0..<count).map { SQLiteValue.decode(from: statement.handle, at: $0) ?? .null }
    }
}
