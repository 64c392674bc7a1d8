/// JSON string literals written by hand (RFC 8259, section 7), straight into a byte buffer.
///
/// `"` and `\` are escaped, and so is every control character (below U+0020, DEL and the C1
/// controls U+0080–009F): as `\b`, `\f`, `\n`, `\r`, `\t` where JSON has a short form, else as
/// `\u00XX` (lower-case hex). Everything else, `/` and other non-ASCII text included, is written
/// as its UTF-8 bytes.
enum JSONString {
    static func append(_ text: String, to bytes: inout ByteBuffer) {
        var text = text
        text.withUTF8 { append($0, to: &bytes) }
    }

    /// Writes the UTF-8 bytes `utf8` (valid UTF-8) as a string literal; runs of bytes that need no
    /// escape are copied whole.
    static func append(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout ByteBuffer) {
        bytes.append(UInt8(ascii: "\""))
        // 0xC2 leads the C1 controls U+0080–009F (and U+00A0–00BF, which stay as they are).
        if !escaped.occurs(in: utf8) && !utf8.contains(0xC2) {
            bytes.append(utf8)
            return bytes.append(UInt8(ascii: "\""))
        }
        var run = 0
        var position = 0
        while position < utf8.count {
            let byte = utf8[position]
            // DEL and the C1 controls (CSI U+009B among them) are valid raw in JSON, but a
            // terminal that shows the output would act on them: written as \u escapes, they
            // read back the same.
            if byte == 0xC2, position + 1 < utf8.count, (0x80...0x9F).contains(utf8[position + 1]) {
                bytes.append(UnsafeBufferPointer(rebasing: utf8[run..<position]))
                appendEscaped(utf8[position + 1], to: &bytes)
                position += 2
                run = position
                continue
            }
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(UnsafeBufferPointer(rebasing: utf8[run..<position]))
                appendEscaped(byte, to: &bytes)
                run = position + 1
            }
            position += 1
        }
        bytes.append(UnsafeBufferPointer(rebasing: utf8[run...]))
        bytes.append(UInt8(ascii: "\""))
    }

    /// The ASCII bytes written escaped: the control characters, DEL, `"` and `\`.
    private static let escaped = ASCIISet(0x00, through: 0x1F, and: [0x7F, UInt8(ascii: "\""), UInt8(ascii: "\\")])

    private static let hex = Array("0123456789abcdef".utf8)

    private static func appendEscaped(_ byte: UInt8, to bytes: inout ByteBuffer) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            for escaped in [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]] {
                bytes.append(escaped)
            }
        }
    }
}
