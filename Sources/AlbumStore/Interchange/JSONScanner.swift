import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// AlbumStore's JSON parser (RFC 8259): a streaming tokenizer over a `CatalogInput`. `JSONReader`
/// and `NDJSONReader` read one album object at a time into a record with it, and
/// `JSONValueReader` builds a session value or a snapshot file's `JSONValue` with it.
///
/// It never holds more than the token it is in (a string, a number) besides the input's chunk.
/// A member's value becomes a `SourceValue`: a string `.text` (every escape undone, `\uXXXX`
/// surrogate pairs joined, a lone surrogate U+FFFD), a number `.number` as written, `true` and
/// `false` `.bool`, `null` nothing; an object or array is checked and read past, `.nested`.
/// Syntax errors throw `CatalogError` with the line and what was expected there. A string whose
/// bytes are not UTF-8 is kept with U+FFFD and its record gets a problem.
///
/// Keys become columns in the order first seen. A key that is the one the previous object had at
/// the same place is matched on its bytes, without making a String: objects of one catalog
/// mostly share their keys and order. Every step is linear in the input: a repeated key finds
/// its earlier value through its column, not by searching the object's values.
struct JSONScanner {
    private let input: CatalogInput
    /// NDJSON: a line break ends the value; inside one it is an error.
    private let singleLine: Bool
    /// How errors name the end of the input.
    private let end: String
    private var window: UnsafeMutablePointer<UInt8>
    private var windowEnd: Int
    private var pos = 0
    /// The input's offset of `window[0]`: the bytes dropped before it by `fill`.
    private var windowOffset = 0
    /// The input's offset of the first byte of the line of `pos`.
    private var lineOffset = 0
    /// The start of the token being read, kept when a chunk is read.
    private var mark: Int?
    /// The 1-based line of `pos`.
    private(set) var line = 1
    private var scratch: [UInt8] = []
    /// A string was read whose bytes are not UTF-8 (since `readObject` began).
    private var sawInvalidUTF8 = false
    /// The last string read was longer than `fieldLimit`: it was dropped as it was read, and
    /// read as empty.
    private(set) var lastStringWasTooLong = false
    /// A string longer than `fieldLimit` was read (since `readObject` began).
    private var sawTooLongString = false

    private(set) var columns: [String] = []
    private var columnBytes: [[UInt8]] = []
    private var columnIndex: [String: Int] = [:]
    /// The columns of the previous object's members, in order.
    private var previousKeys: [Int] = []
    /// By column: the index in the values of the object being read (`readObject`), valid when
    /// the column's stamp is `objectNumber`.
    private var valueIndex: [Int] = []
    private var valueStamp: [Int] = []
    private var objectNumber = 0

    static let depthLimit = 512
    /// The longest string of a catalog, as the CSV reader's field limit: a longer key or value
    /// makes its object's problem, and its bytes are not kept (memory stays bounded).
    static let fieldLimit = CSVReader.fieldLimit
    /// The longest string kept: `fieldLimit`, or no limit for a reader of data already in memory.
    private let stringLimit: Int

    /// - Parameters:
    ///   - end: How errors name the end of the input ("found the end of the file").
    ///   - stringLimit: The longest string kept (see `lastStringWasTooLong`).
    init(over input: CatalogInput, singleLine: Bool, end: String = "the end of the file", stringLimit: Int = fieldLimit) {
        self.input = input
        self.singleLine = singleLine
        self.end = end
        self.stringLimit = stringLimit
        window = input.bytes
        windowEnd = input.count
    }

    var bytesRead: Int { input.bytesRead }

    /// The 1-based column of `pos` in bytes.
    var column: Int { windowOffset + pos - lineOffset + 1 }

    // MARK: Bytes

    /// Reads the next chunk, keeping the token from `mark` (or nothing before `pos`).
    ///
    /// - Throws: `CatalogError` in single-line mode when the line is over `CSVReader.recordLimit`:
    ///   a source that never ends a line (`/dev/zero`) is not read on.
    private mutating func fill() throws -> Bool {
        if singleLine && windowOffset + pos - lineOffset > CSVReader.recordLimit {
            throw CatalogError(line: line, reason: "has a line over \(CSVReader.recordLimit >> 20) MiB, where reading stopped (not NDJSON?)")
        }
        let keep = mark ?? pos
        let more = try input.advance(keeping: keep)
        pos -= keep
        windowOffset += keep
        if mark != nil { mark = 0 }
        window = input.bytes
        windowEnd = input.count
        return more
    }

    /// The byte at `pos`, reading on when needed; `nil` at the end of the input.
    mutating func peek() throws -> UInt8? {
        if pos == windowEnd, try !fill() { return nil }
        return window[pos]
    }

    /// Skips white space (counting lines) and gives the byte after it. In single-line mode a line
    /// feed is not skipped but given.
    /// After an object's member: `true` past its `,` (`byte` then the next one), `false` past
    /// the object's `}`.
    private mutating func moreMembers(_ byte: inout UInt8?) throws -> Bool {
        byte = try skipWhitespace()
        if byte == UInt8(ascii: ",") {
            pos += 1
            byte = try skipWhitespace()
            return true
        }
        guard byte == UInt8(ascii: "}") else { throw error("',' or '}' after a value", found: byte) }
        pos += 1
        return false
    }

    mutating func skipWhitespace() throws -> UInt8? {
        while true {
            while pos < windowEnd {
                let byte = window[pos]
                switch byte {
                case 0x20, 0x09, 0x0D:
                    pos += 1
                case 0x0A:
                    if singleLine { return byte }
                    stepPastLineFeed()
                default:
                    return byte
                }
            }
            guard try fill() else { return nil }
        }
    }

    /// Steps past the byte `peek` or `skipWhitespace` gave.
    mutating func step() { pos += 1 }

    /// Skips to just past the next line feed (or to the end): how NDJSON goes on after a bad line.
    mutating func skipLine() throws {
        mark = nil
        while true {
            while pos < windowEnd {
                let byte = window[pos]
                if byte == 0x0A { return stepPastLineFeed() }
                pos += 1
            }
            guard try fill() else { return }
        }
    }

    /// Steps past a line feed at `pos` (NDJSON's line end).
    mutating func stepPastLineFeed() {
        pos += 1
        line += 1
        lineOffset = windowOffset + pos
    }

    func error(_ expected: String, found byte: UInt8?) -> CatalogError {
        CatalogError(line: line, reason: "expected \(expected), found \(describe(byte))")
    }

    private func describe(_ byte: UInt8?) -> String {
        guard let byte else { return end }
        switch byte {
        case 0x0A: return "the end of the line"
        case 0x20...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return "the byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }

    // MARK: Objects

    /// Reads the object at `pos` (its `{`) into values by column; `problem` when a string in it
    /// was not UTF-8.
    mutating func readObject() throws -> (values: [(column: Int, value: SourceValue)], problem: String?) {
        pos += 1
        sawInvalidUTF8 = false
        sawTooLongString = false
        var tooLong: String?
        objectNumber += 1
        var values: [(column: Int, value: SourceValue)] = []
        values.reserveCapacity(max(previousKeys.count, 4))
        // Values a later null of their key took back, marked with column -1 until the end.
        var forgotten = 0
        var keys: [Int] = []
        keys.reserveCapacity(previousKeys.count)
        var byte = try skipWhitespace()
        if byte == UInt8(ascii: "}") {
            pos += 1
            return (values, nil)
        }
        while true {
            guard byte == UInt8(ascii: "\"") else { throw error("a key (a string in double quotes)", found: byte) }
            guard let column = try readKey(expected: keys.count < previousKeys.count ? previousKeys[keys.count] : nil) else {
                // A key over the limit has no column: its member is read past.
                if tooLong == nil { tooLong = "key \(keys.count + 1) is over 1 MiB" }
                byte = try skipWhitespace()
                guard byte == UInt8(ascii: ":") else { throw error("':' after a key", found: byte) }
                pos += 1
                try skipValue(depth: 1)
                guard try moreMembers(&byte) else { break }
                continue
            }
            keys.append(column)
            byte = try skipWhitespace()
            guard byte == UInt8(ascii: ":") else { throw error("':' after the key \"\(columns[column])\"", found: byte) }
            pos += 1
            sawTooLongString = false
            let earlier = valueStamp[column] == objectNumber ? valueIndex[column] : nil
            let value = try readValue(depth: 1)
            if sawTooLongString {
                // Kept out, as a CSV field over the limit is: the record is rejected anyway.
                if tooLong == nil { tooLong = "the value of \"\(shortName(of: column))\" is over 1 MiB" }
            } else if let value {
                if let earlier {
                    values[earlier].value = value
                } else {
                    valueStamp[column] = objectNumber
                    valueIndex[column] = values.count
                    values.append((column, value))
                }
            } else if let earlier {
                // A later null forgets an earlier value of the same key: the last one counts.
                values[earlier].column = -1
                valueStamp[column] = 0
                forgotten += 1
            }
            guard try moreMembers(&byte) else { break }
        }
        if forgotten > 0 { values.removeAll { $0.column < 0 } }
        previousKeys = keys
        return (values, tooLong ?? (sawInvalidUTF8 ? "has text that is not valid UTF-8" : nil))
    }

    /// A column's name as a problem quotes it: cut at 40 characters, as a key may be 1 MiB long.
    private func shortName(of column: Int) -> String {
        let name = columns[column]
        return name.count > 40 ? name.prefix(39) + "…" : name
    }

    /// Reads the value after white space: `nil` for `null`, `.nested` for an object or array
    /// (read past and checked).
    mutating func readValue(depth: Int) throws -> SourceValue? {
        let byte = try skipWhitespace()
        switch byte {
        case UInt8(ascii: "\""): return .text(try readString())
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try skipValue(depth: depth)
            return .nested
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return nil
        case let digit? where digit == UInt8(ascii: "-") || (digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9")):
            return .number(try readNumber())
        default:
            throw error("a value", found: byte)
        }
    }

    /// Reads past the value after white space, checking its syntax; gives what it was, for a
    /// record's problem ("a string", "an array", ...).
    @discardableResult
    mutating func skipValue(depth: Int) throws -> String {
        guard depth <= Self.depthLimit else {
            throw CatalogError(line: line, reason: "values nested deeper than \(Self.depthLimit) levels")
        }
        let byte = try skipWhitespace()
        switch byte {
        case UInt8(ascii: "{"):
            pos += 1
            var next = try skipWhitespace()
            if next == UInt8(ascii: "}") {
                pos += 1
                return "an object"
            }
            while true {
                guard next == UInt8(ascii: "\"") else { throw error("a key (a string in double quotes)", found: next) }
                _ = try readString()
                next = try skipWhitespace()
                guard next == UInt8(ascii: ":") else { throw error("':' after a key", found: next) }
                pos += 1
                try skipValue(depth: depth + 1)
                next = try skipWhitespace()
                if next == UInt8(ascii: "}") { break }
                guard next == UInt8(ascii: ",") else { throw error("',' or '}' after a value", found: next) }
                pos += 1
                next = try skipWhitespace()
            }
            pos += 1
            return "an object"
        case UInt8(ascii: "["):
            pos += 1
            if try skipWhitespace() == UInt8(ascii: "]") {
                pos += 1
                return "an array"
            }
            try skipArrayElements(depth: depth + 1)
            return "an array"
        default:
            switch try readValue(depth: depth) {
            case .text?: return "a string"
            case .number?: return "a number"
            case .bool?: return "a boolean"
            case nil: return "null"
            case .nested?: return "an object"
            }
        }
    }

    /// Reads past the elements of an array whose `[` and first white space are behind, and its `]`.
    mutating func skipArrayElements(depth: Int) throws {
        while true {
            try skipValue(depth: depth)
            let next = try skipWhitespace()
            if next == UInt8(ascii: "]") { break }
            guard next == UInt8(ascii: ",") else { throw error("',' or ']' after an array element", found: next) }
            pos += 1
        }
        pos += 1
    }

    mutating func readLiteral(_ word: StaticString) throws {
        let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for expected in bytes {
            let byte = try peek()
            guard byte == expected else { throw error("'\(word)'", found: byte) }
            pos += 1
        }
    }

    /// Reads the number at `pos`, giving it as written.
    mutating func readNumber() throws -> String {
        mark = pos
        defer { mark = nil }
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false }
        var byte = try peek()
        if byte == UInt8(ascii: "-") {
            pos += 1
            byte = try peek()
        }
        if byte == UInt8(ascii: "0") {
            pos += 1
            if isDigit(try peek()) { throw CatalogError(line: line, reason: "a number cannot start with 0") }
        } else if isDigit(byte) {
            while isDigit(try peek()) { pos += 1 }
        } else {
            throw error("a digit", found: byte)
        }
        if try peek() == UInt8(ascii: ".") {
            pos += 1
            guard isDigit(try peek()) else { throw error("a digit after '.'", found: try peek()) }
            while isDigit(try peek()) { pos += 1 }
        }
        if let exponent = try peek(), exponent == UInt8(ascii: "e") || exponent == UInt8(ascii: "E") {
            pos += 1
            if let sign = try peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { pos += 1 }
            guard isDigit(try peek()) else { throw error("a digit in the exponent", found: try peek()) }
            while isDigit(try peek()) { pos += 1 }
        }
        let start = mark ?? pos
        return String(decoding: UnsafeBufferPointer(start: window + start, count: pos - start), as: UTF8.self)
    }

    // MARK: Strings

    /// Reads the string at `pos` (its `"`); one whose bytes are not UTF-8 is kept with U+FFFD and
    /// gives the object being read a problem.
    mutating func readString() throws -> String {
        let (text, isValid) = try readCheckedString()
        if !isValid { sawInvalidUTF8 = true }
        return text
    }

    /// Reads the string at `pos` (its `"`), and whether its bytes were UTF-8 (else they are
    /// repaired with U+FFFD).
    mutating func readCheckedString() throws -> (text: String, isValid: Bool) {
        var text = ""
        var invalid = false
        let isCheckedUTF8 = input.isCheckedUTF8
        lastStringWasTooLong = try !scanString { bytes in
            if isCheckedUTF8 {
                text = String(decoding: bytes, as: UTF8.self)
            } else if let valid = UTF8Validator.string(from: bytes) {
                text = valid
            } else {
                invalid = true
                text = String(decoding: bytes, as: UTF8.self)
            }
        }
        if lastStringWasTooLong { sawTooLongString = true }
        return (text, !invalid)
    }

    /// Reads a key, giving its column: `expected`'s when its bytes are the same (no String made);
    /// `nil` when the key is longer than `fieldLimit`.
    private mutating func readKey(expected: Int?) throws -> Int? {
        var column: Int?
        var name: String?
        let expectedBytes = expected.map { columnBytes[$0] }
        let fits = try scanString { bytes in
            if let expected, let expectedBytes, expectedBytes.withUnsafeBufferPointer({ Self.same($0, bytes) }) {
                column = expected
            } else {
                name = String(decoding: bytes, as: UTF8.self)
            }
        }
        guard fits else { return nil }
        if let column { return column }
        let key = name ?? ""
        if let known = columnIndex[key] { return known }
        columns.append(key)
        columnBytes.append(Array(key.utf8))
        valueIndex.append(0)
        valueStamp.append(0)
        columnIndex[key] = columns.count - 1
        return columns.count - 1
    }

    private static func same(_ one: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard one.count == other.count else { return false }
        guard let first = one.baseAddress, let second = other.baseAddress else { return true }
        return memcmp(first, second, one.count) == 0
    }

    /// Scans the string at `pos` and lends its unescaped bytes to `body` (valid for the call):
    /// straight from the window when it has no escape, else from `scratch`. A string longer than
    /// `fieldLimit` is checked to its end but not kept, nor lent: then it gives `false`.
    @discardableResult
    private mutating func scanString(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws -> Bool {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        pos += 1
        mark = pos
        defer { mark = nil }
        var escaped = false
        var dropping = false
        while true {
            let bytes = window, end = windowEnd
            var index = pos
            while index < end {
                let byte = bytes[index]
                if byte == quote || byte == backslash || byte < 0x20 { break }
                index += 1
            }
            pos = index
            if index == end {
                dropIfTooLong(escaped: escaped, dropping: &dropping)
                guard try fill() else { throw error("'\"' to close the string", found: nil) }
                continue
            }
            let start = mark ?? pos
            let run = UnsafeBufferPointer(start: window + start, count: pos - start)
            let byte = window[pos]
            if byte == quote {
                pos += 1
                if dropping || run.count + (escaped ? scratch.count : 0) > stringLimit { return false }
                if escaped {
                    scratch.append(contentsOf: run)
                    scratch.withUnsafeBufferPointer { body($0) }
                } else {
                    body(run)
                }
                return true
            }
            guard byte == backslash else {
                throw error(byte == 0x0A ? "'\"' before the end of the line" : "a control character escaped (\\u00XX)", found: byte)
            }
            if !escaped {
                escaped = true
                scratch.removeAll(keepingCapacity: true)
            }
            scratch.append(contentsOf: run)
            pos += 1
            mark = pos
            try readEscape()
            mark = pos
            dropIfTooLong(escaped: escaped, dropping: &dropping)
        }
    }

    /// Once the string being scanned (from `mark`, and in `scratch` when `escaped`) is longer than
    /// `stringLimit`, lets go of what was kept, and keeps nothing more of it.
    private mutating func dropIfTooLong(escaped: Bool, dropping: inout Bool) {
        if !dropping {
            let kept = (escaped ? scratch.count : 0) + pos - (mark ?? pos)
            guard kept > stringLimit else { return }
            dropping = true
            scratch = []
        }
        mark = nil
        scratch.removeAll(keepingCapacity: true)
    }

    /// Reads the escape after a backslash into `scratch`.
    private mutating func readEscape() throws {
        let byte = try peek()
        pos += 1
        switch byte {
        case UInt8(ascii: "\""): scratch.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var unit = try readHex4()
            // A high surrogate and a low one as the next \u escape are one scalar; a lone
            // surrogate becomes U+FFFD.
            while unit >= 0xD800 && unit <= 0xDBFF, try peek() == UInt8(ascii: "\\") {
                pos += 1
                guard try peek() == UInt8(ascii: "u") else {
                    appendScalar(nil)
                    return try readEscape()
                }
                pos += 1
                let next = try readHex4()
                if next >= 0xDC00 && next <= 0xDFFF {
                    return appendScalar(Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10 | (UInt32(next) - 0xDC00))))
                }
                appendScalar(nil)
                unit = next
            }
            appendScalar(Unicode.Scalar(unit))
        default:
            pos -= 1
            throw error("an escape (\\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX) after '\\'", found: byte)
        }
    }

    /// Appends the UTF-8 of `scalar`; U+FFFD for `nil` (a lone surrogate).
    private mutating func appendScalar(_ scalar: Unicode.Scalar?) {
        let scalar = scalar ?? "\u{FFFD}"
        scratch.append(contentsOf: String(scalar).utf8)
    }

    private mutating func readHex4() throws -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = try peek()
            let digit: UInt16
            switch byte {
            case let byte? where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"): digit = UInt16(byte - UInt8(ascii: "0"))
            case let byte? where byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"): digit = UInt16(byte - UInt8(ascii: "a") + 10)
            case let byte? where byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"): digit = UInt16(byte - UInt8(ascii: "A") + 10)
            default: throw error("four hex digits after '\\u'", found: byte)
            }
            value = value << 4 | digit
            pos += 1
        }
        return value
    }

    /// Whether `bytes` are one JSON object and nothing more but white space (how detection tells
    /// NDJSON's first line).
    static func isOneObject(_ bytes: some Collection<UInt8>) -> Bool {
        guard let input = try? CatalogInput(data: Data(bytes), encoding: .utf8) else { return false }
        var scanner = JSONScanner(over: input, singleLine: true)
        guard (try? scanner.skipWhitespace()) == UInt8(ascii: "{"), (try? scanner.readObject()) != nil else { return false }
        return (try? scanner.skipWhitespace()) == .some(nil)
    }
}
