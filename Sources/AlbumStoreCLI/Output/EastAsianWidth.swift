/// The code points a terminal draws two columns wide: Unicode's East Asian Width `W` (Wide) and
/// `F` (Fullwidth), as 16 ranges.
///
/// Why so few: emoji with `Emoji_Presentation` are left out (the standard library's
/// `isEmojiPresentation` knows them, in the Unicode version Swift ships), and a range runs on
/// across unassigned code points, which are most likely to become wide where all around them is.
/// What is left are the CJK, Hangul, kana, Yi, Tangut and fullwidth-form blocks. Made with Perl's
/// Unicode 14 tables:
///
///     perl -e 'my @r; my $ok = 1; for my $cp (0..0x10FFFF) { next if $cp >= 0xD800 && $cp <= 0xDFFF;
///       my $c = chr($cp); if ($c =~ /\p{Ea=W}|\p{Ea=F}/ && $c !~ /\p{Emoji_Presentation}/) {
///       if (@r && $ok) { $r[-1][1] = $cp } else { push @r, [$cp, $cp] } $ok = 1 }
///       elsif ($c !~ /\p{Cn}|\p{Emoji_Presentation}/) { $ok = 0 } } printf "0x%X...0x%X,\n", @$_ for @r'
///
/// Combining marks inside these ranges (U+302A–302D, U+3099–309A, U+16FE4) are zero-width;
/// `DisplayWidth` checks for marks first.
enum EastAsianWidth {
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,    // Hangul Jamo leading consonants
        0x2329...0x232A,    // angle brackets
        0x2E80...0x303E,    // CJK radicals, Kangxi, ideographic description, CJK punctuation
        0x3041...0x3247,    // kana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed CJK
        0x3250...0x4DBF,    // enclosed CJK, CJK compatibility, CJK extension A
        0x4E00...0xA4C6,    // CJK unified ideographs, Yi
        0xA960...0xA97C,    // Hangul Jamo extended A
        0xAC00...0xD7A3,    // Hangul syllables
        0xF900...0xFAFF,    // CJK compatibility ideographs
        0xFE10...0xFE19,    // vertical forms
        0xFE30...0xFE6B,    // CJK compatibility forms, small form variants
        0xFF01...0xFF60,    // fullwidth forms
        0xFFE0...0xFFE6,    // fullwidth signs
        0x16FE0...0x1B2FB,  // ideographic symbols, Tangut, Khitan, kana supplements, Nushu
        0x1F200...0x1F265,  // enclosed ideographic supplement
        0x20000...0x3FFFD,  // CJK extensions B and later (planes 2 and 3)
    ]

    /// Whether `scalar` is Wide or Fullwidth (a binary search of 16 ranges).
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count
        while low < high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
