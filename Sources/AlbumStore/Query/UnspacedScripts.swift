/// The scripts written without spaces between words: Han, Hiragana, Katakana, Bopomofo, Hangul,
/// Thai, Lao, Khmer and Myanmar.
///
/// The full-text index's tokenizer (unicode61) takes a run of their letters as one word, so
/// `坂本` never finds `坂本龍一` there; a search word holding one of them is matched as a
/// substring instead (`QuerySQL`). Hangul is spaced by phrases, but its particles stick to the
/// word before (`서울의`), so it is searched the same way.
enum UnspacedScripts {
    /// The blocks of those scripts' letters, marks and ideographs, in order.
    static let ranges: [ClosedRange<UInt32>] = [
        0x0E00...0x0EFF,    // Thai, Lao
        0x1000...0x109F,    // Myanmar
        0x1100...0x11FF,    // Hangul Jamo
        0x1780...0x17FF,    // Khmer
        0x19E0...0x19FF,    // Khmer Symbols
        0x2E80...0x2FDF,    // CJK and Kangxi Radicals
        0x3005...0x3007,    // 々 〆 〇
        0x3021...0x3029,    // Hangzhou numerals
        0x3031...0x3035,    // Kana repeat marks
        0x303B...0x303C,    // 〻 〼
        0x3040...0x312F,    // Hiragana, Katakana, Bopomofo
        0x3130...0x318F,    // Hangul Compatibility Jamo
        0x31A0...0x31BF,    // Bopomofo Extended
        0x31F0...0x31FF,    // Katakana Phonetic Extensions
        0x3400...0x4DBF,    // CJK Unified Ideographs Extension A
        0x4E00...0x9FFF,    // CJK Unified Ideographs
        0xA960...0xA97F,    // Hangul Jamo Extended-A
        0xA9E0...0xA9FF,    // Myanmar Extended-B
        0xAA60...0xAA7F,    // Myanmar Extended-A
        0xAC00...0xD7FF,    // Hangul Syllables, Hangul Jamo Extended-B
        0xF900...0xFAFF,    // CJK Compatibility Ideographs
        0xFF66...0xFFDC,    // Halfwidth Katakana and Hangul
        0x1B000...0x1B16F,  // Kana Supplement, Kana Extended-A, Small Kana Extension
        0x20000...0x3134F,  // CJK Unified Ideographs Extensions B to G, Compatibility Supplement
    ]

    /// Whether `text` holds a character of one of the scripts.
    static func appear(in text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            // Below U+0E00 is every script written with spaces (Latin, Greek, Cyrillic, Arabic...).
            scalar.value >= 0x0E00 && ranges.contains { $0.contains(scalar.value) }
        }
    }
}
