import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// Search words in scripts written without spaces are substrings of the title or the artist, for
/// queries parsed and built in code alike; other words keep the full-text index.
struct UnspacedSearchTests {
    let directory: TemporaryDirectory
    let library: Library

    static let drafts: [AlbumDraft] = [
        AlbumDraft(title: "坂本龍一の音楽", artist: "坂本龍一"),
        AlbumDraft(title: "Low", artist: "David Bowie"),
        AlbumDraft(title: "สวัสดีครับ", artist: "Bodyslam"),
        AlbumDraft(title: "がっこう", artist: "Kana"),
        AlbumDraft(title: "100% 東京_Mix", artist: "Test"),
        AlbumDraft(title: "Tokyo", artist: "東京Jazz Quartet"),
    ]

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
        for draft in Self.drafts { try library.albums.append(draft) }
    }

    func titles(_ text: String) throws -> [String] {
        try library.albums.albums(matching: try AlbumQuery(parsing: text)).map(\.title)
    }

    @Test func aPartOfARunOfLettersFindsTheAlbum() throws {
        for query in ["坂本", "音楽", "龍一", "坂本*", "の音", "\"坂本龍一\""] {
            #expect(try titles(query) == ["坂本龍一の音楽"], "\(query)")
        }
        #expect(try titles("วัส") == ["สวัสดีครับ"])
        #expect(try titles("っこ") == ["がっこう"])
    }

    @Test func conditionsBuiltInCodeAndCountsAgree() throws {
        let query = AlbumQuery([.init(.text("音楽"))])
        #expect(try library.albums.albums(matching: query).map(\.title) == ["坂本龍一の音楽"])
        #expect(try library.albums.count(matching: query) == 1)
        #expect(try library.albums.count(matching: AlbumQuery([.init(.text("音楽"), negated: true)])) == Self.drafts.count - 1)
        #expect(try library.albums.stats(matching: query).albums == 1)
    }

    @Test func charactersAreComparedAsWrittenExceptTheCaseOfASCIILetters() throws {
        // Kana voicing marks count: か is not が.
        #expect(try titles("かっこう") == [])
        #expect(try titles("title:かっこう") == ["がっこう"])
        #expect(try titles("東京jazz") == ["Tokyo"])
        #expect(try titles("東京JAZZ") == ["Tokyo"])
        // `%` and `_` are text, not patterns.
        #expect(try titles("%_東京") == [])
        #expect(try titles("東京_mix") == ["100% 東京_Mix"])
        #expect(try titles("\"100% 東京\"") == ["100% 東京_Mix"])
    }

    @Test func latinWordsStillUseTheFullTextIndex() throws {
        #expect(try titles("bow") == [])
        #expect(try titles("bow*") == ["Low"])
        #expect(try QuerySQL(AlbumQuery(parsing: "bowie")).whereClause.contains("MATCH"))
        let mixed = try QuerySQL(AlbumQuery(parsing: "bowie 坂本"))
        #expect(mixed.whereClause.contains("MATCH") && mixed.whereClause.contains("instr("))
        #expect(try titles("tokyo 東京") == ["Tokyo"])
    }

    @Test func theScriptsWrittenWithoutSpacesAreTold() {
        for text in ["坂本", "おんがく", "カタカナ", "ｶﾀｶﾅ", "서울", "สวัสดี", "ສະບາຍດີ", "សួស្តី", "မင်္ဂလာ", "ㄅㄆ", "𠀋", "x東y"] {
            #expect(UnspacedScripts.appear(in: text), "\(text)")
        }
        for text in ["Bowie", "Björk", "Ελλάδα", "Группа", "שלום", "مرحبا", "नमस्ते", "ＳＭＡＰ", "「」", "!!!", ""] {
            #expect(!UnspacedScripts.appear(in: text), "\(text)")
        }
    }
}
