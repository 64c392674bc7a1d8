import CSQLite
import FoundationEssentials

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
    public static func decode(from value: OpaquePointer) -> SQLiteValue? {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: .real(sqlite3_value_double(value))
        case SQLITE_TEXT: String.decode(from: value).map(SQLiteValue.text)
        case SQLITE_BLOB: Data.decode(from: value).map(SQLiteValue.blob)
        default: .null
        }
    }
}

extension Array where Element == SQLiteValue {
    /// The values as a statement's arguments, each made a `Bindable?` here where its type is
    /// known: letting Swift convert the whole array casts each value at run time, and the first
    /// such cast has the runtime scan every conformance record of the binary (0.2 M instructions
    /// at a command's start).
    public var bindings: [(any Bindable)?] { map { $0 as (any Bindable)? } }
}
