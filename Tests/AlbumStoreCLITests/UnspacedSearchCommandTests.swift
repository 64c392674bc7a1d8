import Foundation
import Testing

/// Bare words in scripts written without spaces (Japanese, Chinese, Korean, Thai) find a part of
/// a title or an artist, in every command that takes a query; Latin words stay whole words.
struct UnspacedSearchCommandTests {
    let store: AlbumStoreFixture

    init() throws {
        store = try AlbumStoreFixture()
        try store.add("坂本龍一の音楽", by: "坂本龍一", "--genre", "Ambient")
        try store.add("Low", by: "David Bowie", "--genre", "Rock")
        try store.add("สวัสดีครับ", by: "Bodyslam", "--genre", "Rock")
        try store.add("서울의 밤", by: "아이유", "--genre", "Pop")
        try store.add("Tokyo Jazz 東京", by: "YMO東京", "--genre", "Jazz")
    }

    func titles(_ arguments: String...) throws -> [String] {
        let result = try store.run(["query", "--format", "json"] + arguments)
        try #require(result.status == 0, "\(result.stderr)")
        return try decodeJSON([PrintedAlbum].self, from: result.stdout).map(\.title)
    }

    @Test func aPartOfAJapaneseNameOrTitleFindsTheAlbum() throws {
        #expect(try titles("坂本") == ["坂本龍一の音楽"])
        #expect(try titles("音楽") == ["坂本龍一の音楽"])
        #expect(try titles("龍一") == ["坂本龍一の音楽"])
        #expect(try titles("坂本*") == ["坂本龍一の音楽"])
        #expect(try titles("坂本龍一") == ["坂本龍一の音楽"])
        #expect(try titles("artist:坂本") == ["坂本龍一の音楽"])
        #expect(try titles("坂本", "龍一") == ["坂本龍一の音楽"])
        #expect(try titles("坂田") == [])
    }

    @Test func aPartOfAThaiOrKoreanWordFindsTheAlbum() throws {
        #expect(try titles("วัสดี") == ["สวัสดีครับ"])
        #expect(try titles("ครับ") == ["สวัสดีครับ"])
        #expect(try titles("서울") == ["서울의 밤"])
        #expect(try titles("이유") == ["서울의 밤"])
    }

    @Test func latinWordsStayWholeWordsAndMixedQueriesAndTheirTerms() throws {
        #expect(try titles("bow") == [])
        #expect(try titles("bow*") == ["Low"])
        // Both kinds of term in one query; a word mixing scripts ignores the case of its ASCII letters.
        #expect(try titles("jazz", "東京") == ["Tokyo Jazz 東京"])
        #expect(try titles("ymo東京") == ["Tokyo Jazz 東京"])
        #expect(try titles("rock", "東京") == [])
        #expect(try titles("^坂本", "genre:rock") == ["Low", "สวัสดีครับ"])
        #expect(try titles("音楽", "OR", "bowie") == ["坂本龍一の音楽", "Low"])
    }

    @Test func countExportAndStatsFindTheSameAlbums() throws {
        #expect(try store.run("query", "音楽", "--count").stdout == "1\n")
        let export = try store.run("export", "坂本", "--format", "ndjson")
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try export.stdout.split(separator: "\n").map { try decodeJSON(PrintedAlbum.self, from: String($0)).title }
            == ["坂本龍一の音楽"])
        let stats = try store.run("stats", "龍一", "--format", "json")
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(stats.stdout.hasPrefix(#"{"albums":1,"artists":1,"#))
    }
}
