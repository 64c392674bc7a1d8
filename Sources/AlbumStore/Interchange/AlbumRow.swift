internal import AlbumSQLite

/// A row of the albums query (`Album.columns`, in `AlbumField.stored` order) is a field source:
/// the writers copy its texts from SQLite's own buffers, where `Album(row:)` would make a String
/// of each (an allocation and a validation pass for any text over 15 bytes).
///
/// The bytes written are those `Album(row:)` would hold: a NULL where the album must have a value
/// fails as it does, and text that is not valid UTF-8 (another program may have written it) is
/// repaired with U+FFFD as a String would be. Plain ASCII, the common case, is written as it is.
extension Row: AlbumFieldSource {
    func withValue<R>(of field: AlbumField, _ body: (StoredValue) throws -> R) throws -> R {
        switch field {
        case .index: return try body(.null)
        case .id: return try body(.integer(try self[0, as: Int64.self]))
        case .title: return try withText(column: 1, required: true, body)
        case .artist: return try withText(column: 2, required: true, body)
        case .genre: return try withText(column: 3, required: false, body)
        case .year:
            // Through Int, as `Album.year` is.
            return try body(try self[4, as: Int?.self].map { .integer(Int64($0)) } ?? .null)
        case .coverURL: return try withText(column: 5, required: false, body)
        case .externalID: return try withText(column: 6, required: false, body)
        // The stored milliseconds are those of the `Date` an `Album` would hold: a Double holds
        // every millisecond a timestamp can spell exactly (tested).
        case .createdAt: return try body(.timestamp(try self[7, as: Int64.self]))
        case .updatedAt: return try body(.timestamp(try self[8, as: Int64.self]))
        }
    }

    private func withText<R>(column: Int32, required: Bool, _ body: (StoredValue) throws -> R) throws -> R {
        try withUTF8(at: column) { bytes in
            guard let bytes else {
                // Fails as `Album(row:)` does, with the same error.
                if required { _ = try self[column, as: String.self] }
                return try body(.null)
            }
            if Self.isASCII(bytes) { return try body(.text(bytes)) }
            var repaired = String(decoding: bytes, as: UTF8.self)
            return try repaired.withUTF8 { try body(.text($0)) }
        }
    }

    /// Whether every byte is below 0x80; a loop the compiler vectorizes.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var any: UInt8 = 0
        for byte in bytes { any |= byte }
        return any < 0x80
    }
}
