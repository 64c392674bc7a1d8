import Foundation

/// The fields of an album to add or to change to, checked by `validated()` before any write.
public struct AlbumDraft: Sendable, Codable, Hashable {
    public var title: String
    public var artist: String
    public var genre: String?
    public var year: Int?
    public var coverURL: String?
    public var externalID: String?

    public init(title: String, artist: String, genre: String? = nil, year: Int? = nil,
                coverURL: String? = nil, externalID: String? = nil) {
        self.title = title
        self.artist = artist
        self.genre = genre
        self.year = year
        self.coverURL = coverURL
        self.externalID = externalID
    }

    /// The draft with text trimmed and empty optional fields made `nil`.
    ///
    /// - Throws: `AlbumError.invalid` naming the field: title and artist must be non-empty, year
    ///   between 1000 and next year, cover URL an http(s) or file URL.
    public func validated(now: Date = Date()) throws -> AlbumDraft {
        var draft = self
        draft.title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        draft.artist = artist.trimmingCharacters(in: .whitespacesAndNewlines)
        draft.genre = genre.trimmedOrNil
        draft.coverURL = coverURL.trimmedOrNil
        draft.externalID = externalID.trimmedOrNil
        if draft.title.isEmpty { throw AlbumError.invalid(field: "title", reason: "must not be empty") }
        if draft.artist.isEmpty { throw AlbumError.invalid(field: "artist", reason: "must not be empty") }
        let nextYear = Calendar(identifier: .gregorian).component(.year, from: now) + 1
        if let year, !(1000...nextYear).contains(year) {
            throw AlbumError.invalid(field: "year", reason: "\(year) is not between 1000 and \(nextYear)")
        }
        if let url = draft.coverURL, !Self.isCoverURL(url) {
            throw AlbumError.invalid(field: "cover URL", reason: "\(url) is not an http(s) or file URL")
        }
        return draft
    }

    private static func isCoverURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else { return false }
        switch scheme {
        case "http", "https": return !(url.host ?? "").isEmpty
        case "file": return !url.path.isEmpty
        default: return false
        }
    }
}

extension Optional<String> {
    var trimmedOrNil: String? {
        guard let text = self?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }
}
