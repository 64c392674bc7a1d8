import CSQLite

/// One value as a changeset record stores it (SQLite's sqlite3session.c, "CHANGESET FORMAT"):
/// a type byte (0 undefined, 1 integer and 2 real with 8 bytes big-endian, 3 text and 4 blob
/// with a varint length and that many bytes, 5 NULL), then the value.
enum ChangesetField {
    static let undefined: UInt8 = 0

    /// Appends `value` (a NULL when `nil`) to `bytes`; an integer as a real when `real` (the
    /// column's affinity is REAL).
    static func append(_ value: OpaquePointer?, real: Bool = false, to bytes: inout [UInt8]) {
        guard let value else { bytes.append(5); return }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER where real:
            bytes.append(2)
            appendBigEndian(Double(sqlite3_value_int64(value)).bitPattern, to: &bytes)
        case SQLITE_INTEGER:
            bytes.append(1)
            appendBigEndian(UInt64(bitPattern: sqlite3_value_int64(value)), to: &bytes)
        case SQLITE_FLOAT:
            bytes.append(2)
            appendBigEndian(sqlite3_value_double(value).bitPattern, to: &bytes)
        case SQLITE_TEXT:
            // The text first, then its length in bytes: the order SQLite documents.
            let text = sqlite3_value_text(value)
            appendBytes(type: 3, UnsafeRawPointer(text), count: sqlite3_value_bytes(value), to: &bytes)
        case SQLITE_BLOB:
            let blob = sqlite3_value_blob(value)
            appendBytes(type: 4, blob, count: sqlite3_value_bytes(value), to: &bytes)
        default:
            bytes.append(5)
        }
    }

    /// Whether two well-formed fields hold the same value as the session extension compares
    /// them: byte for byte, but two REALs as numbers (0.0 and -0.0 are one value).
    static func sameValue(_ first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8>) -> Bool {
        if first.first == 2 && second.first == 2 { return real(first) == real(second) }
        return first == second
    }

    /// The REAL of a type-2 field: its 8 bytes after the type byte, big-endian.
    private static func real(_ field: ArraySlice<UInt8>) -> Double {
        Double(bitPattern: field.dropFirst().reduce(0) { $0 << 8 | UInt64($1) })
    }

    /// The length of the well-formed field that starts at `offset` (this recorder wrote it).
    static func length(of bytes: [UInt8], at offset: Int) -> Int {
        switch bytes[offset] {
        case 1, 2: return 9
        case 3, 4:
            var length = 0
            var header = 1
            // At most five bytes for a length below 2^31; the high bit marks a byte with more.
            while true {
                let byte = bytes[offset + header]
                header += 1
                length = length << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            return header + length
        default: return 1
        }
    }

    /// SQLite's varint for a value below 2^56 (big-endian groups of 7 bits, the high bit set on
    /// every byte but the last): lengths and column counts are far below.
    static func appendVarint(_ value: Int, to bytes: inout [UInt8]) {
        var shift = 0
        while value >> (shift + 7) != 0 { shift += 7 }
        while shift > 0 {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift) & 0x7F | 0x80)
            shift -= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value) & 0x7F)
    }

    private static func appendBigEndian(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    private static func appendBytes(type: UInt8, _ start: UnsafeRawPointer?, count: Int32, to bytes: inout [UInt8]) {
        bytes.append(type)
        appendVarint(Int(count), to: &bytes)
        if let start, count > 0 {
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: start, count: Int(count)))
        }
    }
}
