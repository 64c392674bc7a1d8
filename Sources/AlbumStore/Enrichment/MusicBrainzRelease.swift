import FoundationEssentials

/// What enrichment takes from a MusicBrainz release, as its web service's JSON gives it (a
/// lookup of `/ws/2/release/ID`, or one entry of a search's `releases`).
struct MusicBrainzRelease: Sendable {
    let id: String
    let title: String
    /// The artist credit as printed: names joined by their join phrases.
    let artist: String
    /// The search's score, 0 to 100 (`nil` in a lookup).
    let score: Int?
    let releaseGroupID: String?
    /// The year of the release group's first release, else of this release.
    let year: Int?
    /// The genre with the most votes (the release's, else its group's), `nil` without any.
    let genre: String?
    /// Whether the Cover Art Archive has a front image (`nil`: not said).
    let hasFrontCover: Bool?

    /// - Throws: `EnrichmentError.unexpectedAnswer` when `json` is not a release.
    init(_ json: JSONValue) throws {
        guard let id = json["id"]?.string, MusicBrainzID.isValid(id), let title = json["title"]?.string else {
            throw EnrichmentError.unexpectedAnswer("a release without an id or a title")
        }
        self.id = id.lowercased()
        self.title = title
        artist = (json["artist-credit"]?.array ?? []).map { credit in
            (credit["name"]?.string ?? credit["artist"]?["name"]?.string ?? "") + (credit["joinphrase"]?.string ?? "")
        }.joined()
        score = json["score"]?.integer
        let group = json["release-group"]
        releaseGroupID = group?["id"]?.string
        year = Self.year(group?["first-release-date"]?.string) ?? Self.year(json["date"]?.string)
        genre = Self.topGenre(json["genres"]) ?? Self.topGenre(group?["genres"])
        hasFrontCover = json["cover-art-archive"]?["front"]?.bool
    }

    /// The year of a date written `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
    private static func year(_ date: String?) -> Int? {
        guard let date, date.utf8.count >= 4, let year = Int(date.prefix(4)), (1000...9999).contains(year) else { return nil }
        return year
    }

    /// The name with the highest count (the first of equals), its words capitalised as the
    /// library's genres are ("art rock" is "Art Rock").
    private static func topGenre(_ genres: JSONValue?) -> String? {
        var best: (name: String, count: Int64)?
        for genre in genres?.array ?? [] {
            guard let name = genre["name"]?.string?.trimmingWhitespace(), !name.isEmpty else { continue }
            let count = genre["count"]?.integer.map(Int64.init) ?? 0
            if best == nil || count > best!.count { best = (name, count) }
        }
        return best.map { $0.name.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ") }
    }
}

/// MusicBrainz ids: lowercase UUIDs.
enum MusicBrainzID {
    /// Whether `text` is one (any case): 8-4-4-4-12 hexadecimal digits.
    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                if byte != UInt8(ascii: "-") { return false }
            } else if !(byte >= 48 && byte <= 57) && !(byte | 0x20 >= 97 && byte | 0x20 <= 102) {
                return false
            }
        }
        return true
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { members[key] } else { nil }
    }

    var string: String? { if case let .string(value) = self { value } else { nil } }
    var array: [JSONValue]? { if case let .array(value) = self { value } else { nil } }
    var bool: Bool? { if case let .bool(value) = self { value } else { nil } }

    /// A whole number, also when written as a string ("100", as some services send scores).
    var integer: Int? {
        switch self {
        case let .integer(value): Int(exactly: value)
        case let .unsigned(value): Int(exactly: value)
        case let .double(value): Int(exactly: value)
        case let .string(value): Int(value)
        default: nil
        }
    }
}
