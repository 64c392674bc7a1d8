import FoundationEssentials

// Our public Codable types spell their keys themselves, snake_case, and write dates as
// `ISO8601Timestamp` strings themselves, so their JSON has one shape whatever a coder's strategies:
// `convertToSnakeCase` leaves a snake_case key as it is, and decoding matches keys loosely enough
// to find `cover_url` after `convertFromSnakeCase` has made it `coverUrl`.

/// A key spelled as given.
struct SnakeCaseKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedEncodingContainer where K == SnakeCaseKey {
    /// Writes a date as an `ISO8601Timestamp` string, whatever the encoder's date strategy.
    mutating func encode(_ date: Date, forKey name: String) throws {
        try encode(ISO8601Timestamp.string(from: date), forKey: SnakeCaseKey(name))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey name: String) throws {
        try encode(value, forKey: SnakeCaseKey(name))
    }

    /// Writes `value`, or `null` when it is `nil`.
    mutating func encodeOrNull<T: Encodable>(_ value: T?, forKey name: String) throws {
        if let value { try encode(value, forKey: SnakeCaseKey(name)) } else { try encodeNil(forKey: SnakeCaseKey(name)) }
    }
}

/// A JSON object's members found by our snake_case names, however a key decoding strategy spelled
/// them: keys compare without case and underscores (`cover_url`, `coverUrl`, `COVER_URL`).
struct SnakeCaseObject {
    private let container: KeyedDecodingContainer<SnakeCaseKey>
    private let keys: [String: SnakeCaseKey]

    init(_ decoder: Decoder) throws {
        container = try decoder.container(keyedBy: SnakeCaseKey.self)
        var keys: [String: SnakeCaseKey] = [:]
        for key in container.allKeys { keys[Self.loose(key.stringValue)] = keys[Self.loose(key.stringValue)] ?? key }
        self.keys = keys
    }

    private static func loose(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != "_" })
    }

    /// The key as the object spells it (the name itself when missing, for the error to name it).
    private func key(_ name: String) -> SnakeCaseKey { keys[Self.loose(name)] ?? SnakeCaseKey(name) }

    /// The member `name`. - Throws: `DecodingError.keyNotFound` when it is missing.
    func decode<T: Decodable>(_ type: T.Type, forKey name: String) throws -> T {
        try container.decode(type, forKey: key(name))
    }

    /// The member `name`, or `nil` when it is `null` or missing.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey name: String) throws -> T? {
        try container.decodeIfPresent(type, forKey: key(name))
    }

    /// The member `name` as an `ISO8601Timestamp` string.
    func decodeDate(forKey name: String) throws -> Date {
        let text = try decode(String.self, forKey: name)
        guard let date = ISO8601Timestamp.date(from: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key(name), in: container,
                debugDescription: "\(text) is not an ISO 8601 date like 2026-11-22T01:51:30.123Z")
        }
        return date
    }
}
