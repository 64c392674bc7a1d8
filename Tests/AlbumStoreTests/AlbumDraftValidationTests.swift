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

    @Test func theLatestYearIsNextYear() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)   // 2023-11-14 UTC
        #expect(try AlbumDraft(title: "T", artist: "A", year: 2024).validated(now: now).year == 2024)
        #expect(throws: AlbumError.self) { try AlbumDraft(title: "T", artist: "A", year: 2025).validated(now: now) }
        #expect(throws: AlbumError.self) { try AlbumDraft(title: "T", artist: "A", year: 999).validated(now: now) }
    }
}
