/// Parses JSON text (RFC 8259) into a `JSONValue`, saying where it is wrong.
///
/// Written by hand rather than through JSONDecoder: decoding an enum of unknown kind through
/// `Decodable` tries each kind in turn, and each miss builds an error, which made reading a
/// snapshot of 1,000 keys take tens of milliseconds; and JSONDecoder says only "not valid
/// JSON", not where. Nesting is limited (`depthLimit`), so hostile input cannot exhaust the stack.
struct JSONParser {
    static let depthLimit = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The value `text` holds, with nothing but white space around it.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) throws(JSONValue.SyntaxError) -> JSONValue {
        var parser = JSONParser(text)
        let value = try parser.value(depth: 0)
        if parser.skipWhitespace() != nil { throw parser.error("expected the end of the text after the value") }
        return value
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
        guard depth < Self.depthLimit else { throw error("nested deeper than \(Self.depthLimit) levels") }
        guard let next = skipWhitespace() else { throw truncated }
        switch next {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("expected a JSON value")
        }
    }

    private mutating func object(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
        position += 1
        var members: [String: JSONValue] = [:]
        if skipWhitespace() == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            guard let next = skipWhitespace() else { throw truncated }
            guard next == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
            let name = try string()
            guard let colon = skipWhitespace() else { throw truncated }
            guard colon == UInt8(ascii: ":") else { throw error("expected ':' after the member name") }
            position += 1
            members[name] = try value(depth: depth + 1)
            guard let separator = skipWhitespace() else { throw truncated }
            position += 1
            if separator == UInt8(ascii: "}") { return .object(members) }
            guard separator == UInt8(ascii: ",") else {
                position -= 1
                throw error("expected ',' or '}' in the object")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONValue.SyntaxError) -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        if skipWhitespace() == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth + 1))
            guard let separator = skipWhitespace() else { throw truncated }
            position += 1
            if separator == UInt8(ascii: "]") { return .array(elements) }
            guard separator == UInt8(ascii: ",") else {
                position -= 1
                throw error("expected ',' or ']' in the array")
            }
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONValue.SyntaxError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw truncated }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] {
            throw error("expected a JSON value")
        }
        position += count
        return value
    }

    private mutating func number() throws(JSONValue.SyntaxError) -> JSONValue {
        let start = position
        var isWhole = true
        if peek() == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        let integerDigits = digits()
        guard integerDigits > 0 else { throw peek() == nil ? truncated : error("expected a digit") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
            position = integerStart
            throw error("a number cannot start with 0")
        }
        if peek() == UInt8(ascii: ".") {
            position += 1
            isWhole = false
            guard digits() > 0 else { throw peek() == nil ? truncated : error("expected a digit after '.'") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            isWhole = false
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw peek() == nil ? truncated : error("expected a digit in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isWhole, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else {
            position = start
            throw error("the number is too large")
        }
        return .double(double)
    }

    /// Steps over digits and returns how many there were.
    private mutating func digits() -> Int {
        let start = position
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
        return position - start
    }

    // MARK: Strings

    /// The string starting at the quote under `position`, escapes undone.
    private mutating func string() throws(JSONValue.SyntaxError) -> String {
        position += 1
        let start = position
        // Most strings have no escape: their bytes are the string's.
        while let byte = peek(), byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 { position += 1 }
        if peek() == UInt8(ascii: "\"") {
            let text = try utf8(start..<position)
            position += 1
            return text
        }
        var scratch = Array(bytes[start..<position])
        while true {
            guard let byte = peek() else { throw truncated }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return try utf8(scratch, from: start)
            case UInt8(ascii: "\\"):
                position += 1
                try escape(into: &scratch)
            case ..<0x20:
                throw error("a control character must be escaped in a string")
            default:
                scratch.append(byte)
                position += 1
            }
        }
    }

    private mutating func escape(into scratch: inout [UInt8]) throws(JSONValue.SyntaxError) {
        guard let byte = peek() else { throw truncated }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var code = UInt32(try hex4())
            // A high surrogate followed by a low one is one scalar; a lone one becomes U+FFFD.
            if (0xD800..<0xDC00).contains(code), peek() == UInt8(ascii: "\\"), position + 1 < bytes.count,
               bytes[position + 1] == UInt8(ascii: "u") {
                let mark = position
                position += 2
                let low = UInt32(try hex4())
                if (0xDC00..<0xE000).contains(low) {
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    position = mark
                }
            }
            scratch.append(contentsOf: Array(String(Unicode.Scalar(code) ?? "\u{FFFD}").utf8))
        default:
            position -= 1
            throw error("not an escape: '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func hex4() throws(JSONValue.SyntaxError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw truncated }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected 4 hexadecimal digits after \\u")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    private func utf8(_ range: Range<Int>) throws(JSONValue.SyntaxError) -> String {
        guard let text = String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) else {
            throw error("a string is not valid UTF-8", at: range.lowerBound)
        }
        return text
    }

    private func utf8(_ scratch: [UInt8], from start: Int) throws(JSONValue.SyntaxError) -> String {
        guard let text = String(validating: scratch, as: UTF8.self) else {
            throw error("a string is not valid UTF-8", at: start)
        }
        return text
    }

    // MARK: Bytes and errors

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    /// The next byte that is not white space, with `position` on it (`nil` at the end).
    private mutating func skipWhitespace() -> UInt8? {
        while let byte = peek() {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return byte
            }
        }
        return nil
    }

    private var truncated: JSONValue.SyntaxError {
        JSONValue.SyntaxError(reason: "it ends before the JSON value does (truncated?)")
    }

    /// `problem` at the 1-based line and column (in bytes) of `offset`, by default `position`.
    private func error(_ problem: String, at offset: Int? = nil) -> JSONValue.SyntaxError {
        let offset = min(offset ?? position, bytes.count)
        var line = 1, lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return JSONValue.SyntaxError(reason: "\(problem) at line \(line), column \(offset - lineStart + 1)")
    }
}
