import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

struct MatchKeyTests {
    @Test(arguments: [
        ("Björk", "bjork"), ("BJÖRK", "bjork"), ("bjork", "bjork"), ("Beyoncé", "beyonce"),
        ("BEYONCÉ", "beyonce"), ("Motörhead", "motorhead"), ("  The   Cure\t\n", "the cure"),
        ("Sigur\u{00A0}Rós", "sigur ros"), ("Bjo\u{0308}rk", "bjork"), ("Ĩnside\u{2003}\u{2003}Out", "inside out"),
        ("", ""), (" \t ", ""), ("ÆON", "æon"), ("Straße", "straße"),
        // Beyond Latin-1, the general path: decomposition, also of what lower-casing makes.
        ("Ἀθῆναι", "αθηναι"), ("İSTANBUL", "istanbul"), ("Tiến Lên", "tien len"), ("Йога", "иога"),
    ])
    func foldsCaseAccentsAndWhiteSpace(text: String, folded: String) {
        #expect(FoldedText.fold(text) == folded)
    }

    @Test func spellingsOfOneAlbumShareAKey() {
        let key = MatchKey.of(artist: "Björk", title: "Homogenic")
        #expect(MatchKey.of(artist: "BJÖRK", title: "homogenic") == key)
        #expect(MatchKey.of(artist: " bjork ", title: "Homogenic  ") == key)
        #expect(MatchKey.of(artist: "Björk", title: "Post") != key)
        // The separator keeps artist and title apart.
        #expect(MatchKey.of(artist: "ab", title: "c") != MatchKey.of(artist: "a", title: "bc"))
    }

    @Test func theKeyIsFNV1aOverTheFoldedUTF8() {
        // FNV-1a 64 of "" is the offset basis; of "a" a published test vector.
        #expect(MatchKey.hash([UInt8]()) == Int64(bitPattern: 0xcbf2_9ce4_8422_2325))
        #expect(MatchKey.hash(Array("a".utf8)) == Int64(bitPattern: 0xaf63_dc4c_8601_ec8c))
        #expect(MatchKey.of(artist: "Motörhead", title: "Ace of Spades")
            == MatchKey.hash(Array("motorhead".utf8) + [0x1F] + Array("ace of spades".utf8)))
    }

    @Test func theASCIIFastPathFoldsAsTheUnicodePathDoes() {
        // Every ASCII byte alone and between letters, then many random ASCII strings.
        for byte in UInt8(0)..<128 {
            let text = "A\(Character(Unicode.Scalar(byte)))b \(Character(Unicode.Scalar(byte)))"
            #expect(FoldedText.fold(text) == FoldedText.foldUnicode(text), "byte \(byte)")
        }
        var generator = SeededRandom()
        let seed = generator.seed
        let alphabet = Array("aZ9 \t\n\r\u{0B}\u{0C}\u{1F}-,.'\"Éé".unicodeScalars)
        for _ in 0..<5000 {
            let length = Int.random(in: 0..<24, using: &generator)
            var scalars = String.UnicodeScalarView()
            for _ in 0..<length { scalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]) }
            let text = String(scalars)
            var copy = text
            let ascii = copy.withUTF8 { FoldedText.foldASCII($0) }
            if let ascii { #expect(ascii == FoldedText.foldUnicode(text), "\(text.debugDescription), seed \(seed)") }
            #expect(FoldedText.fold(text) == FoldedText.foldUnicode(text), "\(text.debugDescription), seed \(seed)")
            // The key's one-pass ASCII hash agrees with hashing the general fold.
            #expect(MatchKey.of(artist: text, title: "x  Y") == MatchKey.ofAnyText(artist: text, title: "x  Y"), "seed \(seed)")
            #expect(MatchKey.of(artist: "A", title: text) == MatchKey.ofAnyText(artist: "A", title: text), "seed \(seed)")
        }
    }

    @Test func theLatin1PathFoldsAsTheUnicodePathDoes() {
        // Every scalar U+0080...U+00FF alone, between letters and next to spaces, then random
        // strings of ASCII, Latin-1 and a few scalars past it (which take the general path).
        func latin1(_ text: String) -> String? {
            var copy = text, output: [UInt8] = []
            return copy.withUTF8 { FoldedText.appendLatin1Fold($0, to: &output) } ? String(decoding: output, as: UTF8.self) : nil
        }
        for value in UInt32(0x80)...0xFF {
            let scalar = Character(Unicode.Scalar(value)!)
            for text in ["\(scalar)", "A\(scalar)b", " \(scalar) x \(scalar)\(scalar) "] {
                #expect(latin1(text) == FoldedText.foldUnicode(text), "U+\(String(value, radix: 16))")
            }
        }
        let alphabet = Array("aZ \t\u{85}\u{A0}ÀÉéÖöØøßÆæÐþÿµª×\u{AD}¸\u{0301}Łİ".unicodeScalars)
        var generator = SeededRandom()
        let seed = generator.seed
        for _ in 0..<5000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0..<16, using: &generator) {
                scalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
            }
            let text = String(scalars)
            if let folded = latin1(text) { #expect(folded == FoldedText.foldUnicode(text), "\(text.debugDescription), seed \(seed)") }
            #expect(MatchKey.of(artist: text, title: text) == MatchKey.hash(
                Array(FoldedText.foldUnicode(text).utf8) + [0x1F] + Array(FoldedText.foldUnicode(text).utf8)), "seed \(seed)")
        }
    }

    @Test func writesStoreTheKeyAndTheMigrationFillsItForOlderRows() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        let library = try Library.open(at: url)
        let low = try library.albums.append(AlbumDraft(title: "Low", artist: "David Bowie"))
        let many = try library.albums.append(contentsOf: [AlbumDraft(title: "Homogenic", artist: "Björk")])
        try library.albums.update(id: low.id) { $0.title = "Heroes" }
        let keys = try Connection(path: url.path).query("SELECT id, match_key FROM albums ORDER BY id") {
            (try $0[0, as: Int64.self], try $0[1, as: Int64?.self])
        }
        #expect(keys.map(\.1) == [MatchKey.of(artist: "David Bowie", title: "Heroes"), MatchKey.of(artist: "Björk", title: "Homogenic")])
        #expect(keys.map(\.0) == [low.id] + Array(many))
        // The SQL function the migration uses gives the same keys.
        let connection = try Connection(path: url.path)
        try MatchKey.register(on: connection)
        #expect(try connection.scalar("SELECT albumstore_match_key('BJÖRK', ' homogenic')", as: Int64.self)
            == MatchKey.of(artist: "Björk", title: "Homogenic"))
    }
}
