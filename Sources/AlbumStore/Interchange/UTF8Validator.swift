/// Checks that bytes are well-formed UTF-8 (Unicode 15, table 3-7), fed in pieces of any size:
/// a sequence split between two pieces is checked across them.
///
/// Runs of ASCII are checked eight bytes at a time, so a mostly-ASCII catalog costs little more
/// than reading it: what lets `CatalogInput` check a whole regular file before reading it.
struct UTF8Validator {
    /// Continuation bytes the open sequence still needs.
    private var remaining = 0
    /// The range the next continuation byte must fall in (narrower after E0, ED, F0 and F4).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF
    /// `false` once an ill-formed byte was seen; it stays so.
    private(set) var isValid = true

    /// Whether everything fed so far is valid UTF-8 with no sequence left open.
    var isComplete: Bool { isValid && remaining == 0 }

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        guard isValid, let base = bytes.baseAddress else { return }
        let count = bytes.count
        var index = 0
        while index < count {
            if remaining == 0 {
                while index + 8 <= count,
                      base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                }
                guard index < count else { return }
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                index += 1
                if byte < 0x80 { continue }
                (remaining, lower, upper) = switch byte {
                case 0xC2...0xDF: (1, 0x80, 0xBF)
                case 0xE0: (2, 0xA0, 0xBF)
                case 0xE1...0xEC, 0xEE...0xEF: (2, 0x80, 0xBF)
                case 0xED: (2, 0x80, 0x9F)
                case 0xF0: (3, 0x90, 0xBF)
                case 0xF1...0xF3: (3, 0x80, 0xBF)
                case 0xF4: (3, 0x80, 0x8F)
                default: (-1, 0, 0)
                }
                if remaining < 0 {
                    isValid = false
                    return
                }
            } else {
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                index += 1
                guard byte >= lower && byte <= upper else {
                    isValid = false
                    return
                }
                (lower, upper) = (0x80, 0xBF)
                remaining -= 1
            }
        }
    }
}

extension UTF8Validator {
    /// A String of `bytes` when they are valid UTF-8, else `nil`.
    ///
    /// Faster than `String(validating:as:)`, which is generic over the encoding and, unspecialized
    /// here, spends most of its time looking up type metadata (measured: a third of the CSV
    /// reader's time); `String(decoding:)` takes the UTF-8 fast path once the bytes are known valid.
    @inline(__always)
    static func string(from bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var validator = UTF8Validator()
        validator.feed(UnsafeRawBufferPointer(bytes))
        return validator.isComplete ? String(decoding: bytes, as: UTF8.self) : nil
    }
}
