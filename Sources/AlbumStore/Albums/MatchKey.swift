internal import AlbumSQLite

/// The key under which the import looks for an album already in the library: a 64-bit hash of
/// the folded artist and title, stored in `albums.match_key` (indexed).
///
/// Exactly: `Int64(bitPattern:)` of FNV-1a 64 (offset basis 0xcbf29ce484222325, prime
/// 0x100000001b3) over the UTF-8 of `FoldedText.fold(artist)`, one 0x1F byte (the unit
/// separator, which a fold never contains), and `FoldedText.fold(title)`. A C benchmark program
/// computes the same keys, so the definition must not drift. A hash may collide: whoever finds
/// a candidate by key compares the folded texts too.
///
/// Rows written by other programs may have a NULL or a wrong key (they do not know the fold);
/// the duplicate check then misses them. Any write through the library stores the right key.
enum MatchKey {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3
    static let separator: UInt8 = 0x1F

    /// The key of an album by `artist` titled `title`.
    static func of(artist: String, title: String) -> Int64 {
        // ASCII (most catalogs, most rows): folded and hashed in one pass, with no buffer.
        var artist = artist, title = title
        var hash = offsetBasis
        if artist.withUTF8({ hashASCIIFold($0, into: &hash) }) {
            hash = (hash ^ UInt64(separator)) &* prime
            if title.withUTF8({ hashASCIIFold($0, into: &hash) }) { return Int64(bitPattern: hash) }
        }
        return ofAnyText(artist: artist, title: title)
    }

    /// Hashes the fold of `bytes` into `hash` (as `FoldedText.appendASCIIFold` folds); `false`,
    /// with `hash` left half-done, when a byte is not ASCII.
    @inline(__always)
    private static func hashASCIIFold(_ bytes: UnsafeBufferPointer<UInt8>, into hash: inout UInt64) -> Bool {
        var started = false, pendingSpace = false
        for byte in bytes {
            if byte >= 0x80 { return false }
            if FoldedText.isASCIIWhiteSpace(byte) {
                pendingSpace = started
                continue
            }
            if pendingSpace {
                hash = (hash ^ 0x20) &* prime
                pendingSpace = false
            }
            started = true
            hash = (hash ^ UInt64(byte &- 0x41 < 26 ? byte | 0x20 : byte)) &* prime
        }
        return true
    }

    /// The key through the general fold, for text that is not all ASCII.
    static func ofAnyText(artist: String, title: String) -> Int64 {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(artist.utf8.count + title.utf8.count + 1)
        FoldedText.appendFold(of: artist, to: &bytes)
        bytes.append(separator)
        FoldedText.appendFold(of: title, to: &bytes)
        return hash(bytes)
    }

    /// FNV-1a 64 of `bytes`, as a signed integer for SQLite.
    static func hash(_ bytes: some Sequence<UInt8>) -> Int64 {
        var hash = offsetBasis
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* prime
        }
        return Int64(bitPattern: hash)
    }
}

extension MatchKey {
    /// The SQL function `albumstore_match_key(artist, title)`, deterministic; NULL when either
    /// argument is NULL.
    static let functionName = "albumstore_match_key"

    /// Registers `functionName` on `connection` (the library's writer, which migrates).
    static func register(on connection: Connection) throws {
        try connection.createFunction(functionName, argumentCount: 2, deterministic: true) { arguments in
            guard arguments.count == 2, let artist = arguments[0].text, let title = arguments[1].text else { return .null }
            return .integer(of(artist: artist, title: title))
        }
    }
}

extension SQLiteValue {
    /// The value as text, as SQLite would convert it; `nil` for NULL and blobs.
    var text: String? {
        switch self {
        case .text(let text): text
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .null, .blob: nil
        }
    }
}
