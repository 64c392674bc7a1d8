import CSQLite
import FoundationEssentials

/// A scalar SQL function written in Swift, as `Connection.createFunction` registers it.
///
/// SQLite keeps the box (as the function's user data) and releases it when the function is
/// replaced or the connection closes, so the closure lives exactly as long as SQLite can call it.
final class SQLFunctionBox {
    let body: (borrowing SQLFunctionArguments) throws -> SQLiteValue

    init(_ body: @escaping (borrowing SQLFunctionArguments) throws -> SQLiteValue) { self.body = body }
}

/// The arguments of one call of a SQL function, lent to its body for that call only: text is
/// read where SQLite holds it, without a copy. They cannot be copied, so they cannot be kept.
public struct SQLFunctionArguments: ~Copyable {
    @usableFromInline let values: UnsafeMutablePointer<OpaquePointer?>?
    /// How many arguments the call has.
    public let count: Int

    init(values: UnsafeMutablePointer<OpaquePointer?>?, count: Int) {
        self.values = values
        self.count = count
    }

    /// Argument `index` (0-based) as a value of its own (text and blobs copied); NULL for an
    /// index out of range.
    public subscript(index: Int) -> SQLiteValue {
        guard index >= 0, index < count, let value = values?[index] else { return .null }
        return SQLiteValue.decode(from: value) ?? .null
    }

    /// Calls `body` with the UTF-8 bytes of argument `index` (0-based) where SQLite holds them,
    /// valid during the call only, when the argument is text; `nil` for any other value (a
    /// number is not converted) or an index out of range. Invalid UTF-8 another program stored
    /// comes as it is, unrepaired.
    @inlinable
    public func withUTF8<T>(ofText index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
        guard index >= 0, index < count, let value = values?[index], sqlite3_value_type(value) == SQLITE_TEXT else { return nil }
        // The pointer first: sqlite3_value_bytes is only valid after it.
        let text = sqlite3_value_text(value)
        return try body(UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
    }
}

extension Connection {
    /// Registers a scalar SQL function `name` taking `argumentCount` arguments on this
    /// connection, computed by `body` from the arguments' values.
    ///
    /// `deterministic` lets SQLite use it in indexes and factor repeated calls out; only say so
    /// when the result depends on the arguments alone. The function is the connection's only:
    /// another program opening the file does not have it. `body` must not use the connection.
    /// An error `body` throws fails the statement (`SQLITE_ERROR`, with the error's description
    /// as message). Under a requested `Interruption` a call fails with `SQLITE_INTERRUPT` instead
    /// of running `body`.
    /// Related SQLite documentation: https://sqlite.org/c3ref/create_function.html
    public func createFunction(
        _ name: String, argumentCount: Int32, deterministic: Bool = true,
        _ body: @escaping ([SQLiteValue]) throws -> SQLiteValue
    ) throws(SQLiteError) {
        try createLendingFunction(name, argumentCount: argumentCount, deterministic: deterministic) { arguments in
            var values: [SQLiteValue] = []
            values.reserveCapacity(arguments.count)
            for index in 0..<arguments.count { values.append(arguments[index]) }
            return try body(values)
        }
    }

    /// Registers a scalar SQL function as `createFunction(_:argumentCount:deterministic:_:)`
    /// does, whose `body` reads the arguments SQLite lends it, in place: for a function called
    /// once a row, where copying each argument would cost more than the function's own work.
    public func createLendingFunction(
        _ name: String, argumentCount: Int32, deterministic: Bool = true,
        _ body: @escaping (borrowing SQLFunctionArguments) throws -> SQLiteValue
    ) throws(SQLiteError) {
        let box = Unmanaged.passRetained(SQLFunctionBox(body)).toOpaque()
        let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
        // On failure SQLite calls the destructor itself, releasing the box.
        let code = sqlite3_create_function_v2(
            handle, name, argumentCount, flags, box,
            { context, count, values in
                guard let context, let data = sqlite3_user_data(context) else { return }
                let box = Unmanaged<SQLFunctionBox>.fromOpaque(data).takeUnretainedValue()
                // A slow function (a regular expression) can take longer per row than the
                // progress handler's 1000 steps take over many rows.
                if let interruption = Interruption.current, interruption.isInterrupted {
                    return sqlite3_result_error_code(context, SQLITE_INTERRUPT)
                }
                let result: SQLiteValue
                do {
                    result = try box.body(SQLFunctionArguments(values: values, count: Int(max(0, count))))
                } catch {
                    return sqlite3_result_error(context, String(describing: error), -1)
                }
                switch result {
                case .null: sqlite3_result_null(context)
                case .integer(let value): sqlite3_result_int64(context, value)
                case .real(let value): sqlite3_result_double(context, value)
                case .text(var value):
                    value.withUTF8 { utf8 in
                        utf8.withMemoryRebound(to: CChar.self) { text in
                            // An empty buffer may have no address, and a NULL pointer would give NULL.
                            guard let base = text.baseAddress, !text.isEmpty else {
                                return sqlite3_result_text(context, "", 0, nil)
                            }
                            sqlite3_result_text64(context, base, UInt64(text.count), csqlite_transient(), UInt8(SQLITE_UTF8))
                        }
                    }
                case .blob(let value):
                    value.withUnsafeBytes { bytes in
                        sqlite3_result_blob64(context, bytes.baseAddress, UInt64(bytes.count), csqlite_transient())
                    }
                }
            },
            nil, nil,
            { data in
                guard let data else { return }
                Unmanaged<SQLFunctionBox>.fromOpaque(data).release()
            })
        try check(code, handle)
    }
}
