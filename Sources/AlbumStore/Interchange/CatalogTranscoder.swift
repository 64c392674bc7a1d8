/// Turns a catalog's UTF-16, Windows-1252 or Latin-1 bytes into UTF-8, piece by piece; or, for a
/// UTF-8 file with a few lines in Windows-1252, those lines alone.
///
/// Pieces may end anywhere: an odd byte of a UTF-16 code unit and the high half of a surrogate
/// pair are kept for the next piece. A lone surrogate (and a code unit cut off by the end of the
/// file) becomes U+FFFD, as Unicode's conversion rules say; nothing is dropped silently.
struct CatalogTranscoder {
    enum Source {
        case utf16(bigEndian: Bool)
        case windows1252
        case latin1
        /// UTF-8 passed on as it is, but for these lines (counted as `LineEncodingSurvey` counts
        /// them), read as Windows-1252.
        case utf8WithWindows1252Lines(LineRanges)
    }

    let source: Source
    /// The first byte of a UTF-16 code unit whose second byte is in the next piece.
    private var oddByte: UInt8?
    /// A high surrogate waiting for its low half.
    private var highSurrogate: UInt16?
    /// `utf8WithWindows1252Lines`: the line being read, whether a CR ended the last one, and the
    /// first range of Windows-1252 lines not yet passed.
    private var line = 1
    private var afterCarriageReturn = false
    private var rangeIndex = 0

    init(_ source: Source) { self.source = source }

    /// The most bytes `transcode` can write for `count` input bytes (and `finish` after it):
    /// a byte of Windows-1252 gives up to 3, two bytes of UTF-16 up to 3, four up to 4.
    static func capacity(forInput count: Int) -> Int { count * 3 + 8 }

    /// Writes the UTF-8 of `input` to `output`, which has room for `capacity(forInput:)` bytes;
    /// returns how many bytes it wrote.
    mutating func transcode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        switch source {
        case .latin1:
            for byte in input { written += Self.appendScalar(UInt32(byte), to: output + written) }
        case .windows1252:
            for byte in input { written += Self.appendWindows1252(byte, to: output + written) }
        case let .utf8WithWindows1252Lines(lines):
            var isWindows1252 = isWindows1252Line(lines)
            for byte in input {
                if isWindows1252 {
                    written += Self.appendWindows1252(byte, to: output + written)
                } else {
                    output[written] = byte
                    written += 1
                }
                if afterCarriageReturn {
                    afterCarriageReturn = false
                    if byte == 0x0A { continue }
                }
                if byte == 0x0A || byte == 0x0D {
                    line += 1
                    afterCarriageReturn = byte == 0x0D
                    isWindows1252 = isWindows1252Line(lines)
                }
            }
        case let .utf16(bigEndian):
            var index = 0
            if let first = oddByte, !input.isEmpty {
                oddByte = nil
                written += append(unit: Self.unit(first, input[0], bigEndian: bigEndian), to: output + written)
                index = 1
            }
            while index + 1 < input.count {
                written += append(unit: Self.unit(input[index], input[index + 1], bigEndian: bigEndian), to: output + written)
                index += 2
            }
            if index < input.count { oddByte = input[index] }
        }
        return written
    }

    /// At the end of the input: writes U+FFFD for a code unit or surrogate pair left incomplete.
    mutating func finish(into output: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        if highSurrogate != nil {
            highSurrogate = nil
            written += Self.appendScalar(0xFFFD, to: output + written)
        }
        if oddByte != nil {
            oddByte = nil
            written += Self.appendScalar(0xFFFD, to: output + written)
        }
        return written
    }

    /// Whether `line` is one of `lines`, moving past the ranges before it.
    private mutating func isWindows1252Line(_ lines: LineRanges) -> Bool {
        let ranges = lines.ranges
        while rangeIndex < ranges.count && ranges[rangeIndex].upperBound < line { rangeIndex += 1 }
        return rangeIndex < ranges.count && ranges[rangeIndex].contains(line)
    }

    @inline(__always)
    private static func appendWindows1252(_ byte: UInt8, to output: UnsafeMutablePointer<UInt8>) -> Int {
        let scalar = byte >= 0x80 && byte < 0xA0 ? UInt32(windows1252High[Int(byte - 0x80)]) : UInt32(byte)
        return appendScalar(scalar, to: output)
    }

    private static func unit(_ first: UInt8, _ second: UInt8, bigEndian: Bool) -> UInt16 {
        bigEndian ? UInt16(first) << 8 | UInt16(second) : UInt16(second) << 8 | UInt16(first)
    }

    private mutating func append(unit: UInt16, to output: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        if let high = highSurrogate {
            highSurrogate = nil
            if unit >= 0xDC00 && unit <= 0xDFFF {
                let scalar = 0x10000 + (UInt32(high - 0xD800) << 10 | UInt32(unit - 0xDC00))
                return Self.appendScalar(scalar, to: output)
            }
            written += Self.appendScalar(0xFFFD, to: output)
        }
        switch unit {
        case 0xD800...0xDBFF: highSurrogate = unit
        case 0xDC00...0xDFFF: written += Self.appendScalar(0xFFFD, to: output + written)
        default: written += Self.appendScalar(UInt32(unit), to: output + written)
        }
        return written
    }

    /// Writes the UTF-8 of `scalar` (a valid scalar value) and returns its length.
    @inline(__always)
    private static func appendScalar(_ scalar: UInt32, to output: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case 0..<0x80:
            output[0] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            output[0] = UInt8(0xC0 | scalar >> 6)
            output[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            output[0] = UInt8(0xE0 | scalar >> 12)
            output[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            output[0] = UInt8(0xF0 | scalar >> 18)
            output[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            output[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }

    /// Windows-1252's 0x80–0x9F; the five bytes it leaves undefined keep their C1 control.
    private static let windows1252High: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}
