/// How many columns of a terminal a text takes: what tables line up by.
///
/// Neither `String.count` (Characters) nor UTF-16 units measure that: 坂本龍一 is 4 Characters but
/// 8 columns, "Björk" spelt with a combining diaeresis is 6 scalars but 5 columns, and 👩‍👩‍👧‍👦 is
/// 7 scalars but one picture 2 columns wide. The rules, per grapheme cluster (the unit a terminal
/// must never split, so the unit of cutting too), in the spirit of `wcwidth(3)`:
///
/// - East Asian Wide and Fullwidth characters (`EastAsianWidth`) take 2 columns;
/// - so does an emoji picture: a character with emoji presentation, an emoji followed by the
///   emoji variation selector U+FE0F or a skin-tone modifier, a ZWJ sequence of emoji, a flag (two
///   regional indicators); an emoji followed by U+FE0E (text presentation) takes 1;
/// - combining and enclosing marks, format characters (ZWJ, ZWSP, bidi marks), variation selectors
///   and Hangul medial vowels and final consonants take 0;
/// - control characters take 0 too: tables never print them raw (`TerminalEscaping`);
/// - everything else takes 1; the other characters of a cluster add their own widths (as
///   `wcswidth` does for conjuncts), so a base with marks takes what the base takes.
///
/// East Asian Ambiguous characters (Greek, Cyrillic, box drawing, `…`) take 1, as in every
/// terminal outside a CJK locale.
enum DisplayWidth {
    /// The columns `text` takes.
    static func of(_ text: String) -> Int {
        // Plain ASCII, most of a catalog, is one column a byte: one pass over the UTF-8, no
        // grapheme breaking.
        if let width = asciiWidth(text) { return width }
        var width = 0
        for character in text { width += of(character) }
        return width
    }

    /// The columns one grapheme cluster takes.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        var rest = scalars.dropFirst()
        if rest.isEmpty { return of(first) }
        let properties = first.properties
        if properties.isEmoji {
            if properties.isEmojiPresentation && !rest.contains("\u{FE0E}") { return 2 }
            for scalar in rest {
                switch scalar.value {
                case 0xFE0F, 0x200D: return 2                  // emoji presentation; a ZWJ sequence
                case 0x1F3FB...0x1F3FF: return 2               // skin-tone modifiers
                case 0x1F1E6...0x1F1FF: return 2               // the second regional indicator of a flag
                case 0xFE0E: return 1                          // text presentation
                default: continue
                }
            }
        }
        var width = of(first)
        while let scalar = rest.popFirst() { width += of(scalar) }
        return width
    }

    /// The columns one code point takes on its own.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }                    // DEL and the C1 controls
        if value < 0x300 { return 1 }                   // Latin-1 and Latin extended: no marks, no wide
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) {
            return 0                                    // Hangul medial vowels, final consonants
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        if scalar.properties.isEmojiPresentation || EastAsianWidth.isWide(scalar) { return 2 }
        return 1
    }

    /// The width of `text` when it is printable ASCII (one column a byte), else `nil`.
    private static func asciiWidth(_ text: String) -> Int? {
        let utf8 = text.utf8
        if let width = utf8.withContiguousStorageIfAvailable({ bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? bytes.count : nil
        }) {
            return width
        }
        return utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? utf8.count : nil
    }
}
