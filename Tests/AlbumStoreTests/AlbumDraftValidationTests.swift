import Foundation
import Testing
@testable import AlbumStore

/// What `AlbumDraft.validated` accepts as a cover URL, checked on the text's bytes.
struct AlbumDraftValidationTests {
    @Test(arguments: [
        "https://covers.example.com/1.jpg", "http://x", "HTTPS://Example.com", "hTtP://host?q=1",
        "file:/tmp/cover.jpg", "file:x", "FILE:///c.png", "https://café.example/pochette.jpg",
    ])
    func acceptsHTTPAndFileURLs(url: String) throws {
        #expect(AlbumDraft.isCoverURL(url))
        #expect(try AlbumDraft(title: "T", artist: "A", coverURL: "  \(url)\n").validated().coverURL == url)
    }

    @Test(arguments: [
        "", ":", "no colon", "https:/x", "https//x", "http://", "http:///path", "https://?q", "ftp://x",
        "httpx://a", "htt://a", "file:", "https://exa mple.com", "https://a\tb", "https://a\u{00A0}b",
        "https://a\u{2003}b", "ｈttps://a",
    ])
    func refusesAnythingElse(url: String) {
        #expect(!AlbumDraft.isCoverURL(url))
        #expect(throws: AlbumError.self) { try AlbumDraft(title: "T", artist: "A", coverURL: "x" + url).validated() }
    }

    /// A draft whose `field` holds `bytes` UTF-8 bytes: two-byte letters where it can, to show
    /// that the limit counts bytes, not characters.
    private static func draft(_ field: String, bytes: Int) -> AlbumDraft {
        let text = String(repeating: "é", count: bytes / 2) + (bytes % 2 == 1 ? "x" : "")
        var draft = AlbumDraft(title: "T", artist: "A")
        switch field {
        case "title": draft.title = text
        case "artist": draft.artist = text
        case "genre": draft.genre = text
        case "cover URL": draft.coverURL = "https://x/" + String(repeating: "a", count: bytes - 10)
        default: draft.externalID = text
        }
        return draft
    }

    @Test(arguments: ["title", "artist", "genre", "cover URL", "external id"])
    func aTextFieldPastItsLimitIsRefusedNamingTheFieldAndTheLimit(field: String) throws {
        let limit = field == "cover URL" ? AlbumDraft.maximumCoverURLBytes : AlbumDraft.maximumTextBytes
        #expect(try Self.draft(field, bytes: limit).validated() == Self.draft(field, bytes: limit))
        #expect(throws: AlbumError.invalid(field: field, reason: "must be at most \(limit) bytes (UTF-8), not \(limit + 1)")) {
            try Self.draft(field, bytes: limit + 1).validated()
        }
        // Trimmed first: white space around a value does not count.
        var padded = Self.draft(field, bytes: limit)
        padded.title = "  " + padded.title + "\n"
        #expect(try padded.validated() == Self.draft(field, bytes: limit))
    }

    @Test func theLatestYearIsNextYear() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)   // 2023-11-14 UTC
        #expect(try AlbumDraft(title: "T", artist: "A", year: 2024).validated(now: now).year == 2024)
        #expect(throws: AlbumError.self) { try AlbumDraft(title: "T", artist: "A", year: 2025).validated(now: now) }
        #expect(throws: AlbumError.self) { try AlbumDraft(title: "T", artist: "A", year: 999).validated(now: now) }
    }
}
