/// Text folded for matching: the form two spellings of one name share, so that `Björk`,
/// `BJÖRK` and `bjork`, or `Motörhead` and ` motorhead `, compare equal.
///
/// The fold, exactly (a C benchmark program reproduces it byte for byte, so it must not drift):
/// 1. Unicode default lower case (`String.lowercased()`);
/// 2. canonical decomposition (NFD);
/// 3. every nonspacing mark (general category Mn) dropped: accents, diaereses, cedillas;
/// 4. every run of Unicode `White_Space` made one U+0020 SPACE, none left at either end.
///
/// The import's duplicate check (`MatchKey`) uses it, and the query language will fold search
/// text the same way.
enum FoldedText {
    /// `text` folded as the type's documentation says.
    static func fold(_ text: String) -> String {
        var copy = text
        if let ascii = copy.withUTF8({ foldASCII($0) }) { return ascii }
        return foldUnicode(text)
    }

    /// The fold of `text` as UTF-8 bytes, appended to `output`: the match key's input.
    static func appendFold(of text: String, to output: inout [UInt8]) {
        var copy = text
        let done = copy.withUTF8 { bytes in appendASCIIFold(bytes, to: &output) }
        if !done { output.append(contentsOf: foldUnicode(text).utf8) }
    }

    /// The general path, for any text.
    static func foldUnicode(_ text: String) -> String {
        // NFD after lower-casing: lower-casing can itself produce composed characters
        // (U+0130 İ lowers to i + U+0307), and the marks must all be visible to drop them.
        let decomposed = text.lowercased().decomposedStringWithCanonicalMapping
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in decomposed.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace {
                result.append(" ")
                pendingSpace = false
            }
            result.append(scalar)
        }
        return String(result)
    }

    /// The fast path: `nil` unless every byte is ASCII. For ASCII the fold is lower-casing A-Z
    /// and collapsing the ASCII white space (tab, LF, VT, FF, CR, space): ASCII has no marks
    /// and decomposes to itself.
    static func foldASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        guard appendASCIIFold(bytes, to: &output) else { return nil }
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the fold of `bytes` and returns `true` when they are all ASCII; otherwise leaves
    /// `output` as it was and returns `false`.
    @inline(__always)
    static func appendASCIIFold(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) -> Bool {
        let start = output.count
        var pendingSpace = false
        for byte in bytes {
            if byte >= 0x80 {
                output.removeSubrange(start...)
                return false
            }
            if isASCIIWhiteSpace(byte) {
                pendingSpace = output.count > start
                continue
            }
            if pendingSpace {
                output.append(0x20)
                pendingSpace = false
            }
            output.append(byte &- 0x41 < 26 ? byte | 0x20 : byte)
        }
        return true
    }

    /// Unicode's White_Space among the ASCII bytes: U+0009-U+000D and U+0020 (the tests compare
    /// both paths on every ASCII byte).
    @inline(__always)
    static func isASCIIWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte &- 0x09 < 5
    }
}
