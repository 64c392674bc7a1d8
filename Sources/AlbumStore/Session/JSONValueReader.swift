import FoundationEssentials

/// Reads JSON text into a `JSONValue` through the catalog import's `JSONScanner`, so the library
/// has one JSON parser: session values and snapshot files are read as catalogs are.
///
/// Stricter than a catalog, where one bad string spoils one record: a string that is not UTF-8
/// or a number beyond `Double` is an error. Errors name the line and the column (in bytes).
/// Nesting is limited (`JSONScanner.depthLimit`), so hostile input cannot exhaust the stack.
struct JSONValueReader {
    private var scanner: JSONScanner

    private init(_ input: CatalogInput) {
        // No string limit: the text is in memory already, and a session value may be long.
        scanner = JSONScanner(over: input, singleLine: false, end: "the end of the text", stringLimit: .max)
    }

    /// The value `data` holds, with nothing but white space around it.
    static func value(in data: Data) throws(JSONValue.SyntaxError) -> JSONValue {
        do {
            // One window for the whole text: a session value is small, a snapshot file too.
            let input = try CatalogInput(data: data, encoding: .utf8, chunkSize: max(data.count, 1))
            var reader = JSONValueReader(input)
            return try reader.document()
        } catch let error as JSONValue.SyntaxError {
            throw error
        } catch {
            // The scanner's own errors; `CatalogInput` reads memory and cannot fail.
            throw JSONValue.SyntaxError(reason: (error as? CatalogError)?.reason ?? "\(error)")
        }
    }

    private mutating func document() throws -> JSONValue {
        do {
            let value = try value(depth: 1)
            let after = try scanner.skipWhitespace()
            guard after == nil else { throw scanner.error("the end of the text after the value", found: after) }
            return value
        } catch let error as CatalogError {
            throw failure(error.reason)
        }
    }

    private func failure(_ reason: String, line: Int? = nil, column: Int? = nil) -> JSONValue.SyntaxError {
        JSONValue.SyntaxError(reason: "\(reason) at line \(line ?? scanner.line), column \(column ?? scanner.column)")
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        let byte = try scanner.skipWhitespace()
        guard depth <= JSONScanner.depthLimit else { throw failure("nested deeper than \(JSONScanner.depthLimit) levels") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try scanner.readLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try scanner.readLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try scanner.readLiteral("null")
            return .null
        case let start? where start == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(start):
            return try number()
        default:
            throw scanner.error("a JSON value", found: byte)
        }
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        scanner.step()
        var members: [String: JSONValue] = [:]
        var byte = try scanner.skipWhitespace()
        if byte == UInt8(ascii: "}") {
            scanner.step()
            return .object(members)
        }
        while true {
            guard byte == UInt8(ascii: "\"") else { throw scanner.error("a member name in double quotes", found: byte) }
            let name = try string()
            byte = try scanner.skipWhitespace()
            guard byte == UInt8(ascii: ":") else { throw scanner.error("':' after the member name", found: byte) }
            scanner.step()
            // A repeated name: the last value counts.
            members[name] = try value(depth: depth + 1)
            byte = try scanner.skipWhitespace()
            if byte == UInt8(ascii: "}") { break }
            guard byte == UInt8(ascii: ",") else { throw scanner.error("',' or '}' in the object", found: byte) }
            scanner.step()
            byte = try scanner.skipWhitespace()
        }
        scanner.step()
        return .object(members)
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        scanner.step()
        var elements: [JSONValue] = []
        if try scanner.skipWhitespace() == UInt8(ascii: "]") {
            scanner.step()
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth + 1))
            let byte = try scanner.skipWhitespace()
            if byte == UInt8(ascii: "]") { break }
            guard byte == UInt8(ascii: ",") else { throw scanner.error("',' or ']' in the array", found: byte) }
            scanner.step()
        }
        scanner.step()
        return .array(elements)
    }

    private mutating func string() throws -> String {
        let line = scanner.line, column = scanner.column
        let (text, isValid) = try scanner.readCheckedString()
        guard isValid else { throw failure("a string is not valid UTF-8", line: line, column: column) }
        return text
    }

    /// A whole number that fits 64 bits is an `integer` (`unsigned` above `Int64.max`); any
    /// other number, and `-0` (as JSONEncoder writes -0.0), a `double`.
    private mutating func number() throws -> JSONValue {
        let line = scanner.line, column = scanner.column
        let text = try scanner.readNumber()
        let isWhole = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        if isWhole, text != "-0" {
            if let integer = Int64(text) { return .integer(integer) }
            if let unsigned = UInt64(text) { return .unsigned(unsigned) }
        }
        guard let double = Double(text), double.isFinite else {
            throw failure("the number is too large", line: line, column: column)
        }
        return .double(double)
    }
}
