import CSQLite
import Foundation

/// One SQLite value of any storage class, for code that does not know column types in advance.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

extension SQLiteValue: Bindable {
    @inlinable
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let value): value.bind(to: statement, at: index)
        case .real(let value): value.bind(to: statement, at: index)
        case .text(let value): value.bind(to: statement, at: index)
        case .blob(let value): value.bind(to: statement, at: index)
        }
    }
}

extension SQLiteValue: ColumnDecodable {
    @inlinable
    public static func decode(from statement: OpaquePointer, at column: Int32) -> SQLiteValue? {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT: String.decode(from: statement, at: column).map(SQLiteValue.text)
        case SQLITE_BLOB: Data.decode(from: statement, at: column).map(SQLiteValue.blob)
        default: .null
        }
    }
}
