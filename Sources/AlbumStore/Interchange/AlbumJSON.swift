/// The JSON object of an album, written straight into bytes: the shape `JSONWriter` and
/// `NDJSONWriter` write and `Album`'s `Codable` reads.
///
/// `{"index":0,"id":1,"title":"Low","artist":"David Bowie","genre":null,...,"updated_at":"2026-11-22T01:51:30.123Z"}`:
/// the `AlbumField` keys in their documented order, no white space, `index` only when known,
/// `null` for a missing field (the key is always there), dates as `ISO8601Timestamp` strings.
enum AlbumJSON {
    /// `"key":` of each field, in `AlbumField.allCases` order, escaped once.
    private static let keys: [[UInt8]] = AlbumField.allCases.map { field in
        var bytes: [UInt8] = []
        JSONString.append(field.jsonKey, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        return bytes
    }

    static func append(_ album: Album, index: Int?, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for (field, key) in zip(AlbumField.allCases, keys) {
            let value = field.value(in: album, index: index)
            if field == .index && value == .null { continue }
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            bytes.append(contentsOf: key)
            switch value {
            case let .text(text): JSONString.append(text, to: &bytes)
            case let .integer(number): bytes.appendDecimal(number)
            case let .date(date):
                bytes.append(UInt8(ascii: "\""))
                ISO8601Timestamp.append(date, to: &bytes)
                bytes.append(UInt8(ascii: "\""))
            case .null: bytes.append(contentsOf: "null".utf8)
            }
        }
        bytes.append(UInt8(ascii: "}"))
    }
}
