/// The JSON object of an album, written straight into bytes: the shape `JSONWriter` and
/// `NDJSONWriter` write and `Album`'s `Codable` reads.
///
/// `{"index":0,"id":1,"title":"Low","artist":"David Bowie","genre":null,...,"updated_at":"2026-11-22T01:51:30.123Z"}`:
/// the `AlbumField` keys in their documented order, no white space, `index` only when known,
/// `null` for a missing field (the key is always there), dates as `ISO8601Timestamp` strings.
enum AlbumJSON {
    /// `"key":` of `index` and of each stored field, escaped once.
    private static let indexKey = key(.index)
    private static let storedKeys: [[UInt8]] = AlbumField.stored.map(key)

    private static func key(_ field: AlbumField) -> [UInt8] {
        var bytes = ByteBuffer()
        JSONString.append(field.jsonKey, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        return bytes.withBytes { Array($0) }
    }

    /// Appends the object of `album` (an `Album`, or a row of the albums query) with its index.
    static func append(_ album: borrowing some AlbumFieldSource & ~Copyable, index: Int?, to bytes: inout ByteBuffer) throws {
        bytes.append(UInt8(ascii: "{"))
        if let index {
            bytes.append(indexKey)
            bytes.appendDecimal(Int64(index))
            bytes.append(UInt8(ascii: ","))
        }
        for (number, field) in AlbumField.stored.enumerated() {
            if number > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(storedKeys[number])
            try album.withValue(of: field) { value in
                switch value {
                case let .text(text): JSONString.append(text, to: &bytes)
                case let .integer(number): bytes.appendDecimal(number)
                case let .timestamp(milliseconds):
                    bytes.append(UInt8(ascii: "\""))
                    ISO8601Timestamp.append(milliseconds: milliseconds, to: &bytes)
                    bytes.append(UInt8(ascii: "\""))
                case .null: bytes.append(Self.null)
                }
            }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private static let null = Array("null".utf8)
}

extension Album {
    /// The album's JSON object as `list --format json` writes it (`index` first when given),
    /// with `members`, further `"key":value` pairs of JSON text, before its closing brace.
    package func jsonObject(index: Int?, appending members: String = "") throws -> String {
        var bytes = ByteBuffer()
        try AlbumJSON.append(self, index: index, to: &bytes)
        let object = bytes.withBytes { String(decoding: $0, as: UTF8.self) }
        return members.isEmpty ? object : object.dropLast() + "," + members + "}"
    }
}
