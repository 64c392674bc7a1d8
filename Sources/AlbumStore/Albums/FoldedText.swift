// Full Foundation for its canonical decomposition (NFD), the one thing here neither the standard
// library nor FoundationEssentials offers publicly.
import Foundation

/// Text folded for matching: the form two spellings of one name share, so that `Björk`,
/// `BJÖRK` and `bjork`, or `Motörhead` and ` motorhead `, compare equal.
///
/// The fold, exactly (a C benchmark program reproduces it byte for byte, so it must not drift):
/// 1. Unicode default lower case (`String.lowercased()`);
/// 2. canonical decomposition (NFD: Foundation's `decomposedStringWithCanonicalMapping`, of
///    Foundation's Unicode version, which can lag the standard library's);
/// 3. every nonspacing mark (general category Mn) dropped: accents, diaereses, cedillas;
/// 4. every run of Unicode `White_Space` made one U+0020 SPACE, none left at either end.
///
/// The import's duplicate check (`MatchKey`) uses it, and the query language will fold search
/// text the same way. Two fast paths give the same results (tests compare them over many
/// strings): ASCII, and ASCII with the Latin-1 Supplement (a table made by the general path).
enum FoldedText {
    /// `text` folded as the type's documentation says.
    static func fold(_ text: String) -> String {
        var copy = text
        if let ascii = copy.withUTF8({ foldASCII($0) }) { return ascii }
        var output: [UInt8] = []
        if copy.withUTF8({ appendLatin1Fold($0, to: &output) }) { return String(decoding: output, as: UTF8.self) }
        return foldUnicode(text)
    }

    /// The fold of `text` as UTF-8 bytes, appended to `output`: the match key's input.
    static func appendFold(of text: String, to output: inout [UInt8]) {
        var copy = text
        let done = copy.withUTF8 { bytes in appendLatin1Fold(bytes, to: &output) }
        if !done { output.append(contentsOf: foldUnicode(text).utf8) }
    }

    /// The general path, for any text.
    static func foldUnicode(_ text: String) -> String {
        // NFD after lower-casing: lower-casing can itself produce composed characters
        // (U+0130 İ lowers to i + U+0307), and the marks must all be visible to drop them.
        let decomposed = text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in decomposed {
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

    /// The fast path written to `output`, which holds at least `bytes.count` bytes (the fold of
    /// ASCII is never longer): the fold's length, or `nil` unless every byte is ASCII. No
    /// allocation, for a substring search's every row.
    static func foldASCII(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        precondition(output.count >= bytes.count, "the fold of ASCII needs as many bytes as the text")
        var count = 0
        var pendingSpace = false
        for byte in bytes {
            if byte >= 0x80 { return nil }
            if isASCIIWhiteSpace(byte) {
                pendingSpace = count > 0
                continue
            }
            if pendingSpace {
                output[count] = 0x20
                count += 1
                pendingSpace = false
            }
            output[count] = byte &- 0x41 < 26 ? byte | 0x20 : byte
            count += 1
        }
        return count
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

    /// The fold of each scalar U+0080...U+00FF alone (`nil` for White_Space: U+0085 and
    /// U+00A0), as UTF-8, worked out once by the general path.
    ///
    /// Why it is exact: for text of ASCII and these scalars alone, the fold is scalar by scalar.
    /// Their lower-casing needs no context (only Greek final sigma does), their decompositions
    /// are a base letter and nonspacing marks, which the fold drops, so the canonical reordering
    /// of marks changes nothing; text with any other scalar takes the general path.
    static let latin1: [[UInt8]?] = (0x80...0xFF).map { value in
        guard let scalar = Unicode.Scalar(UInt32(value)) else { return nil }
        if scalar.properties.isWhitespace { return nil }
        return Array(foldUnicode(String(Character(scalar))).utf8)
    }

    /// Appends the fold of `bytes` and returns `true` when they are ASCII and Latin-1 Supplement
    /// letters (U+0080...U+00FF: the accented letters of Western European names); otherwise
    /// leaves `output` as it was and returns `false`.
    static func appendLatin1Fold(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) -> Bool {
        let start = output.count
        var pendingSpace = false
        var index = 0
        let table = latin1
        while index < bytes.count {
            let byte = bytes[index]
            var folded: [UInt8]?
            var isSpace: Bool
            if byte < 0x80 {
                isSpace = isASCIIWhiteSpace(byte)
                index += 1
                if !isSpace {
                    if pendingSpace { output.append(0x20); pendingSpace = false }
                    output.append(byte &- 0x41 < 26 ? byte | 0x20 : byte)
                    continue
                }
            } else if (byte == 0xC2 || byte == 0xC3), index + 1 < bytes.count, bytes[index + 1] & 0xC0 == 0x80 {
                // Two-byte UTF-8 for U+0080...U+00FF.
                let scalar = Int(byte & 0x1F) << 6 | Int(bytes[index + 1] & 0x3F)
                folded = table[scalar - 0x80]
                isSpace = folded == nil
                index += 2
            } else {
                output.removeSubrange(start...)
                return false
            }
            if isSpace {
                pendingSpace = output.count > start
                continue
            }
            if let folded, !folded.isEmpty {
                if pendingSpace { output.append(0x20); pendingSpace = false }
                output.append(contentsOf: folded)
            }
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
