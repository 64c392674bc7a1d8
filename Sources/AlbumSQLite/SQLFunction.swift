import CSQLite
import FoundationEssentials

/// A scalar SQL function written in Swift, as `Connection.createFunction` registers it.
///
/// SQLite keeps the box (as the function's user data) and releases it when the function is
/// replaced or the connection closes, so the closure lives exactly as long as SQLite can call it.
final class SQLFunctionBox {
    let body: ([SQLiteValue]) throws -> SQLiteValue

    init(_ body: @escaping ([SQLiteValue]) throws -> SQLiteValue) { self.body = body }
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
        let box = Unmanaged.passRetained(SQLFunctionBox(body)).toOpaque()
        let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
        // On failure SQLite calls the destructor itself, releasing the box.
        let code = sqlite3_create_function_v2(
            handle, name, argumentCount, flags, box,
            { context, count, values in
                guard let context, let data = sqlite3_user_data(context) else { return }
                let box = Unmanaged<SQLFunctionBox>.fromOpaque(data).takeUnretainedValue()
                var arguments: [SQLiteValue] = []
                arguments.reserveCapacity(Int(count))
                for index in 0..<Int(count) {
                    arguments.append(values?[index].map { SQLiteValue.decode(from: $0) ?? .null } ?? .null)
                }
                // A slow function (a regular expression) can take longer per row than the
                // progress handler's 1000 steps take over many rows.
                if let interruption = Interruption.current, interruption.isInterrupted {
                    return sqlite3_result_error_code(context, SQLITE_INTERRUPT)
                }
                let result: SQLiteValue
                do {
                    result = try box.body(arguments)
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
