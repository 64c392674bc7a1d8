import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The fields of an album to add or to change to, checked by `validated()` before any write.
///
/// Text fields have a length limit, in UTF-8 bytes after trimming: `maximumTextBytes` (1,000)
/// for the title, artist, genre and external id, `maximumCoverURLBytes` (8,192) for the cover
/// URL. Every write checks them: adding, inserting, editing, bulk appends and imports.
///
/// Its `Codable` form is the album's JSON object with only the `AlbumField.editable` keys:
/// `title`, `artist`, `genre`, `year`, `cover_url`, `external_id`.
public struct AlbumDraft: Sendable, Codable, Hashable {
    /// The album's title; must not be empty once trimmed.
    public var title: String
    /// The album's artist; must not be empty once trimmed.
    public var artist: String
    /// The album's genre; `nil` or empty for none.
    public var genre: String?
    /// The year of release, between 1000 and next year; `nil` when unknown.
    public var year: Int?
    /// Where the cover image comes from: an http(s) or file URL; `nil` or empty for none.
    public var coverURL: String?
    /// The album's id in another catalog (Discogs release id, MusicBrainz id, ...), unique when
    /// given; `nil` or empty for none.
    public var externalID: String?

    /// The most UTF-8 bytes a title, artist, genre or external id may hold: 1,000.
    public static let maximumTextBytes = 1_000
    /// The most UTF-8 bytes a cover URL may hold: 8,192.
    public static let maximumCoverURLBytes = 8 * 1024

    /// A draft with these fields, unchecked: `validated()` and every write check them.
    public init(title: String, artist: String, genre: String? = nil, year: Int? = nil,
                coverURL: String? = nil, externalID: String? = nil) {
        self.title = title
        self.artist = artist
        self.genre = genre
        self.year = year
        self.coverURL = coverURL
        self.externalID = externalID
    }

    /// Writes the editable fields under their snake_case keys, `null` for a missing one.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: SnakeCaseKey.self)
        try encodeFields(into: &container)
    }

    /// Writes the editable fields into `container`: the part of an album's JSON that a draft has.
    func encodeFields(into container: inout KeyedEncodingContainer<SnakeCaseKey>) throws {
        try container.encode(title, forKey: AlbumField.title.jsonKey)
        try container.encode(artist, forKey: AlbumField.artist.jsonKey)
        try container.encodeOrNull(genre, forKey: AlbumField.genre.jsonKey)
        try container.encodeOrNull(year, forKey: AlbumField.year.jsonKey)
        try container.encodeOrNull(coverURL, forKey: AlbumField.coverURL.jsonKey)
        try container.encodeOrNull(externalID, forKey: AlbumField.externalID.jsonKey)
    }

    /// Reads the editable fields; a missing or `null` optional field is `nil`, other keys are ignored.
    ///
    /// - Throws: `DecodingError` when `title` or `artist` is missing, or a value has the wrong type.
    public init(from decoder: Decoder) throws {
        try self.init(fields: try SnakeCaseObject(decoder))
    }

    /// Reads the editable fields of a draft's or an album's JSON object.
    init(fields object: SnakeCaseObject) throws {
        title = try object.decode(String.self, forKey: AlbumField.title.jsonKey)
        artist = try object.decode(String.self, forKey: AlbumField.artist.jsonKey)
        genre = try object.decodeIfPresent(String.self, forKey: AlbumField.genre.jsonKey)
        year = try object.decodeIfPresent(Int.self, forKey: AlbumField.year.jsonKey)
        coverURL = try object.decodeIfPresent(String.self, forKey: AlbumField.coverURL.jsonKey)
        externalID = try object.decodeIfPresent(String.self, forKey: AlbumField.externalID.jsonKey)
    }

    /// The draft with text trimmed and empty optional fields made `nil`.
    ///
    /// - Parameter now: The moment that decides "next year", the latest year allowed.
    /// - Throws: `AlbumError.invalid` naming the field: title and artist must be non-empty, text
    ///   fields within their limit (`maximumTextBytes`, `maximumCoverURLBytes`), year between 1000
    ///   and next year, cover URL an http(s) or file URL.
    public func validated(now: Date = Date()) throws -> AlbumDraft {
        try validated(latestYear: Self.year(of: now) + 1)
    }

    /// `validated(now:)` with "next year" worked out once by the caller: an import checks a
    /// million drafts, and the calendar work would cost as much as the rest of the check.
    func validated(latestYear: Int) throws -> AlbumDraft {
        var draft = self
        draft.title = title.trimmed
        draft.artist = artist.trimmed
        draft.genre = genre.trimmedOrNil
        draft.coverURL = coverURL.trimmedOrNil
        draft.externalID = externalID.trimmedOrNil
        if draft.title.isEmpty { throw AlbumError.invalid(field: "title", reason: "must not be empty") }
        if draft.artist.isEmpty { throw AlbumError.invalid(field: "artist", reason: "must not be empty") }
        // Before the URL syntax check, which reads every byte: a huge value is refused unread.
        try Self.checkLength(of: draft.title, field: "title", limit: Self.maximumTextBytes)
        try Self.checkLength(of: draft.artist, field: "artist", limit: Self.maximumTextBytes)
        try Self.checkLength(of: draft.genre, field: "genre", limit: Self.maximumTextBytes)
        try Self.checkLength(of: draft.coverURL, field: "cover URL", limit: Self.maximumCoverURLBytes)
        try Self.checkLength(of: draft.externalID, field: "external id", limit: Self.maximumTextBytes)
        if let year, !(1000...latestYear).contains(year) {
            throw AlbumError.invalid(field: "year", reason: "\(year) is not between 1000 and \(latestYear)")
        }
        if let url = draft.coverURL, !Self.isCoverURL(url) {
            throw AlbumError.invalid(field: "cover URL", reason: "\(url) is not an http(s) or file URL")
        }
        return draft
    }

    /// Refuses `text` past `limit` UTF-8 bytes (a count native strings keep: no scan).
    private static func checkLength(of text: String?, field: String, limit: Int) throws {
        guard let count = text?.utf8.count, count > limit else { return }
        throw AlbumError.invalid(field: field, reason: "must be at most \(limit) bytes (UTF-8), not \(count)")
    }

    /// The UTC year of `date` (a Calendar costs more than the rest of an insert).
    static func year(of date: Date) -> Int {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        return Int(parts.tm_year) + 1900
    }

    /// `http(s)://host...` or `file:...`, with no white space. Checked by hand, on the UTF-8
    /// bytes: Foundation's URL parser, or a walk over Unicode scalars, costs more than the rest
    /// of an insert. Every byte of the syntax is ASCII; only a text with other bytes needs the
    /// Unicode look for white space beyond ASCII.
    static func isCoverURL(_ text: String) -> Bool {
        let syntax = text.utf8.withContiguousStorageIfAvailable(syntax) ?? Array(text.utf8).withUnsafeBufferPointer(syntax)
        switch syntax {
        case .valid: return true
        case .invalid: return false
        case .validIfNoUnicodeSpace: return !text.unicodeScalars.contains { !$0.isASCII && $0.isSpace }
        }
    }

    private enum URLSyntax { case valid, invalid, validIfNoUnicodeSpace }

    /// `isCoverURL` on UTF-8 bytes, in one pass: ASCII white space refuses at once; other
    /// non-ASCII bytes leave the Unicode look to the caller.
    private static func syntax(_ bytes: UnsafeBufferPointer<UInt8>) -> URLSyntax {
        var colon = -1
        var high: UInt8 = 0
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == 32 || byte &- 9 < 5 { return .invalid }
            if colon < 0 && byte == UInt8(ascii: ":") { colon = index }
            high |= byte
        }
        guard colon >= 0 else { return .invalid }
        let rest = bytes[(colon + 1)...]
        let valid: Bool
        switch colon {
        case 4 where hasScheme("http", bytes), 5 where hasScheme("https", bytes):
            let slash = UInt8(ascii: "/")
            guard rest.count > 2, rest[colon + 1] == slash, rest[colon + 2] == slash else { return .invalid }
            let host = rest[(colon + 3)...]
            valid = host.first.map { $0 != slash && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") } ?? false
        case 4 where hasScheme("file", bytes):
            valid = !rest.isEmpty
        default:
            valid = false
        }
        return !valid ? .invalid : high < 0x80 ? .valid : .validIfNoUnicodeSpace
    }

    /// Whether `bytes` starts with `scheme` (lowercase ASCII), in any case.
    private static func hasScheme(_ scheme: StaticString, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let expected = UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount)
        guard bytes.count >= expected.count else { return false }
        for (byte, letter) in zip(bytes, expected) where byte | 0x20 != letter { return false }
        return true
    }
}

extension String {
    /// Without leading and trailing white space and line breaks. Works on Unicode scalars, not
    /// Characters: grapheme breaking would cost more than the insert the check guards.
    var trimmed: String {
        // Nothing to trim when both ends are printable ASCII (most values): two byte reads
        // instead of two scans (an import checks a million drafts), through the contiguous
        // bytes (`utf8.last` walks the view's indexes).
        let ends = utf8.withContiguousStorageIfAvailable { bytes in bytes.first.map { ($0, bytes[bytes.count - 1]) } }
            ?? utf8.first.map { ($0, utf8.last ?? $0) }
        if let (first, last) = ends, first &- 0x21 < 0x5F, last &- 0x21 < 0x5F { return self }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isSpace }),
              let last = scalars.lastIndex(where: { !$0.isSpace }) else { return "" }
        return first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex
            ? self : String(scalars[first...last])
    }
}

extension Optional<String> {
    var trimmedOrNil: String? {
        guard let text = self?.trimmed, !text.isEmpty else { return nil }
        return text
    }
}

extension Unicode.Scalar {
    /// White space or a line break; ASCII answered without the (slow) Unicode property lookup.
    var isSpace: Bool {
        isASCII ? value == 32 || (9...13).contains(value) : properties.isWhitespace
    }
}
