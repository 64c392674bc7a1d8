import AlbumSQLite
import Testing
import TestSupport
@testable import AlbumStore

/// `albumstore_contains`, which substring matches (`title:moon`) call on every row they read.
struct SubstringSearchTests {
    /// Texts of every path of the fold (ASCII, Latin-1, the rest), Greek final sigma, white space
    /// to collapse, and one with a combining mark.
    static let texts = [
        "Low", "HEROES", "Björk", "Motörhead   Live", " a\tb ", "Æon Flux", "straße", "ΜΙΚΗΣ ΘΕΟΔΩΡΑΚΗΣ", "Ελλάδα",
        "Группа крови", "坂本龍一", "İstanbul", "Cafe\u{301}", "",
    ]
    static let needles = [
        "", "o", "low", "bjork", "motorhead live", "a b", "æon", "ß", "μικησ", "θεοδωρακησ", "ελλαδα", "крови", "龍", "istanbul",
        "cafe", "é",
    ]

    /// The definition: the fold of the text as Swift decodes it, Greek final sigma made σ,
    /// holds the needle's bytes.
    static func expected(_ text: String, _ needle: String) -> Bool {
        var folded = Array(FoldedText.fold(text).utf8)
        for index in folded.indices.dropLast() where folded[index] == 0xCF && folded[index + 1] == 0x82 { folded[index + 1] = 0x83 }
        let bytes = Array(needle.utf8)
        guard !bytes.isEmpty else { return true }
        guard folded.count >= bytes.count else { return false }
        return (0...(folded.count - bytes.count)).contains { Array(folded[$0..<($0 + bytes.count)]) == bytes }
    }

    func connection() throws -> Connection {
        let connection = try Connection(path: ":memory:")
        try QueryFunctions.register(on: connection)
        return connection
    }

    @Test func everyTextAndNeedleAsTheFoldOfTheTextSays() throws {
        let connection = try connection()
        // Each text with every needle, and each needle with every text: the last answer kept
        // for the same text must not answer for another needle.
        for text in Self.texts {
            for needle in Self.needles {
                #expect(try connection.scalar("SELECT albumstore_contains(?, ?)", text, needle, as: Bool.self) == Self.expected(text, needle),
                        "\(text) \(needle)")
            }
        }
        for needle in Self.needles {
            for text in Self.texts + Self.texts.reversed() {
                #expect(try connection.scalar("SELECT albumstore_contains(?, ?)", text, needle, as: Bool.self) == Self.expected(text, needle),
                        "\(text) \(needle)")
            }
        }
    }

    /// ASCII text is folded on the stack: random texts of letters, white space and punctuation,
    /// and needles cut from their folds or not, against the definition.
    @Test func asciiTextFoldedOnTheStackMatchesAsTheDefinitionSays() throws {
        let connection = try connection()
        let statement = try connection.prepare("SELECT albumstore_contains(?, ?)")
        var generator = SeededRandom()
        let seed = generator.seed
        let alphabet = Array("aAbZ9 \t\n\r\u{0B}\u{0C}\u{1F}-%_'\"é".unicodeScalars)
        func random(_ lengths: Range<Int>) -> String {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: lengths, using: &generator) {
                scalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
            }
            return String(scalars)
        }
        for _ in 0..<5000 {
            let text = random(0..<24)
            let folded = Array(FoldedText.fold(text).utf8)
            let start = Int.random(in: 0...folded.count, using: &generator)
            let cut = String(decoding: folded[start..<Int.random(in: start...folded.count, using: &generator)], as: UTF8.self)
            for needle in [cut, String(decoding: QueryFunctions.searchFold(random(1..<4)), as: UTF8.self)] {
                let found = try statement.first([text, needle]) { try $0[0, as: Bool.self] }
                #expect(found == Self.expected(text, needle), "\(text.debugDescription) \(needle.debugDescription), seed \(seed)")
            }
            var copy = text
            let onTheStack = copy.withUTF8 { bytes in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { buffer in
                    FoldedText.foldASCII(bytes, into: buffer).map { Array(buffer[..<$0]) }
                }
            }
            if let onTheStack { #expect(onTheStack == Array(FoldedText.foldUnicode(text).utf8), "\(text.debugDescription), seed \(seed)") }
        }
    }

    @Test func rowsOfTheSameValueInARow() throws {
        let connection = try connection()
        try connection.execute("CREATE TABLE albums (genre TEXT)")
        for genre in ["Acid Jazz", "Acid Jazz", "Jazz", "Jazz", "Rock", "Rock", "Jazz"] {
            try connection.run("INSERT INTO albums VALUES (?)", genre)
        }
        #expect(try connection.scalar("SELECT count(*) FROM albums WHERE albumstore_contains(genre, 'jazz')", as: Int.self) == 5)
        #expect(try connection.scalar("SELECT count(*) FROM albums WHERE albumstore_contains(genre, 'acid')", as: Int.self) == 2)
    }

    /// Values another program may store: invalid UTF-8 (matched as Swift repairs it), numbers
    /// (as their digits), NULL and blobs (no match); a needle that is not text matches nothing.
    @Test func valuesAnotherProgramStored() throws {
        let connection = try connection()
        func contains(_ text: String, _ needle: String) throws -> Bool? {
            try connection.scalar("SELECT albumstore_contains(\(text), \(needle))", as: Bool.self)
        }
        #expect(try contains("CAST(x'41FF42C3' AS TEXT)", "'a\u{FFFD}b'") == true)
        #expect(try contains("CAST(x'C3A9FF' AS TEXT)", "'e\u{FFFD}'") == true)
        #expect(try contains("CAST(x'C3A9FF' AS TEXT)", "'e'") == true)
        #expect(try contains("12345", "'234'") == true)
        #expect(try contains("1.5", "'1.5'") == true)
        #expect(try contains("NULL", "''") == false)
        #expect(try contains("x'4C6F77'", "'low'") == false)
        #expect(try contains("'Low'", "NULL") == false)
        #expect(try contains("'12'", "12") == false)
    }

    @Test func theNeedleFoldIsTheTextFold() throws {
        for text in Self.texts {
            #expect(Self.expected(text, String(decoding: QueryFunctions.searchFold(text), as: UTF8.self)), "\(text)")
        }
    }
}
