@testable import AlbumStoreCLI
import Testing

/// The width function tables line up by: terminal columns, not Characters or UTF-16 units.
struct DisplayWidthTests {
    @Test(arguments: [
        ("Low", 3),
        ("", 0),
        ("Bj\u{F6}rk", 5),                               // precomposed ö
        ("Bjo\u{308}rk", 5),                             // o + combining diaeresis
        ("e\u{301}\u{302}\u{303}", 1),                   // a letter with three marks
        ("坂本龍一", 8),
        ("坂本龍一 Playing the Piano", 26),
        ("한국어", 6),
        ("\u{1112}\u{1161}\u{11AB}", 2),                 // 한 as three Jamo
        ("東京ｱ", 5),                                      // halfwidth katakana takes one
        ("ＡＢ", 4),                                       // fullwidth forms
        ("\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}", 2),  // 👩‍👩‍👧‍👦: a ZWJ family of four
        ("\u{1F44D}\u{1F3FD}", 2),                       // 👍🏽: thumbs up, medium skin tone
        ("\u{1F1EF}\u{1F1F5}", 2),                       // a flag: two regional indicators
        ("\u{2764}\u{FE0F}", 2),                         // text-default heart + emoji presentation
        ("\u{2764}", 1),                                 // text-default heart alone
        ("#\u{FE0F}\u{20E3}", 2),                        // keycap
        ("\u{1F3B6}\u{FE0E}", 1),                        // emoji asking for text presentation
        ("\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}", 2),       // rainbow flag: white flag, FE0F, ZWJ, rainbow
        ("a\u{200B}b\u{200D}c", 3),                      // zero-width space and joiner
        ("…αβЖ─", 5),                                    // East Asian Ambiguous: one column each
        ("\u{FE0F}", 0),                                 // a lone variation selector
    ])
    func displayWidthCountsTerminalColumns(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test func aStringIsAsWideAsItsGraphemeClustersTogether() {
        let text = "Bjo\u{308}rk 坂本龍一 \u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}\u{1F44D}\u{1F3FD} ok"
        #expect(DisplayWidth.of(text) == text.reduce(0) { $0 + DisplayWidth.of($1) })
        #expect(DisplayWidth.of(text) == 5 + 1 + 8 + 1 + 2 + 2 + 1 + 2)
    }

    @Test func controlCharactersTakeNoColumnsBecauseTheyAreNeverPrintedRaw() {
        #expect(DisplayWidth.of("\u{1B}\u{7}\u{7F}\u{9B}") == 0)
    }

    @Test(arguments: [0x302A, 0x3099, 0x16FE4] as [UInt32])
    func combiningMarksInsideWideBlocksTakeNoColumns(value: UInt32) throws {
        let mark = try #require(Unicode.Scalar(value))
        #expect(EastAsianWidth.isWide(mark))
        #expect(DisplayWidth.of(mark) == 0)
    }

    @Test func theWideRangesAreSortedAndApart() {
        let ranges = EastAsianWidth.wideRanges
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound + 1 < $1.lowerBound })
    }

    @Test(arguments: [(0x10FF, false), (0x1100, true), (0x115F, true), (0x1160, false), (0x4E00, true),
                      (0xA4C7, false), (0xFF61, false), (0x20000, true), (0x3FFFD, true), (0x40000, false)] as [(UInt32, Bool)])
    func theWideRangesHaveTheirEnds(value: UInt32, isWide: Bool) throws {
        #expect(EastAsianWidth.isWide(try #require(Unicode.Scalar(value))) == isWide)
    }
}
