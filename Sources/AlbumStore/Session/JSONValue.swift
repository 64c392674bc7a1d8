import FoundationEssentials

/// Any JSON value: what an app keeps under a session key.
///
/// Numbers come back as saved: a whole number that fits `Int64` is an `integer`, a larger one
/// that fits `UInt64` an `unsigned` (both exact), any other number a `double` (`-0.0` keeps its
/// sign). Objects compare by their members, whatever their order.
package enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses JSON text (any value, not only an object or array). A number with a fraction or
    /// an exponent, `-0`, or one beyond 64 bits is a `double`; other numbers are `integer`s, or
    /// `unsigned` above `Int64.max`.
    /// - Throws: `JSONValue.SyntaxError` saying what is wrong and where (line and column).
    package init(parsing data: Data) throws {
        self = try JSONValueReader.value(in: data)
    }

    package init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(UInt64.self) {
            self = .unsigned(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(value): try container.encode(value)
        case let .integer(value): try container.encode(value)
        case let .unsigned(value): try container.encode(value)
        // A whole number is written as an integer, as the compact writer below does.
        case let .double(value):
            if let whole = Self.whole(value) { try container.encode(whole) } else { try container.encode(value) }
        case let .string(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        }
    }

    /// The value as compact JSON text, object keys sorted: the same value always reads the same
    /// (a whole `double` is written as an integer, as it reads back).
    package var description: String {
        var text = ""
        write(to: &text)
        return text
    }

    /// The value as compact JSON, object keys sorted (`description`'s UTF-8).
    package var jsonData: Data { Data(description.utf8) }

    /// Appends the compact JSON of the value. Written by hand rather than through JSONEncoder:
    /// saving state writes it every time, and the encoder's containers cost several times more.
    private func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case let .bool(value): text += value ? "true" : "false"
        case let .integer(value): text += String(value)
        case let .unsigned(value): text += String(value)
        case let .double(value):
            if let whole = Self.whole(value) {
                text += String(whole)
            } else if value == 0 {
                text += "-0"   // read back as the double -0.0
            } else {
                // JSON has no infinity or NaN.
                text += value.isFinite ? String(value) : "null"
            }
        case let .string(value): Self.write(value, to: &text)
        case let .array(elements):
            text += "["
            for (number, element) in elements.enumerated() {
                if number > 0 { text += "," }
                element.write(to: &text)
            }
            text += "]"
        case let .object(members):
            text += "{"
            for (number, name) in members.keys.sorted().enumerated() {
                if number > 0 { text += "," }
                Self.write(name, to: &text)
                text += ":"
                members[name]?.write(to: &text)
            }
            text += "}"
        }
    }

    /// `value` as an integer when it is one, but for `-0.0`, which would lose its sign.
    private static func whole(_ value: Double) -> Int64? {
        value == 0 && value.sign == .minus ? nil : Int64(exactly: value)
    }

    /// `string` as a JSON string: quotes, backslashes and control characters escaped (RFC 8259).
    private static func write(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// Why text is not JSON.
    package struct SyntaxError: Error, CustomStringConvertible, Sendable, Equatable {
        package var reason: String
        package var description: String { "not JSON: \(reason)" }
    }

    /// The JSON kind, for error messages ("expected a string, found a number").
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .unsigned, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue {
    /// The JSON that `JSONEncoder` writes for `value`: how an app's `Codable` values are kept.
    package init(encoding value: some Encodable) throws {
        self = try JSONValue(parsing: JSONEncoder().encode(value))
    }

    /// The value decoded as a `T` by `JSONDecoder`.
    package func decoded<T: Decodable>(as type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: jsonData)
    }
}
