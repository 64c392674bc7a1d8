/// A set of ASCII bytes, looked for in a text by one pass without branches: how the writers find
/// that a field needs no escaping, the common case, and copy it whole, and how `XMLScanner` finds
/// the next byte it must look at.
struct ASCIISet {
    /// Bit `n` of `low` for byte `n` below 64, of `high` for byte `64 + n`.
    private let low: UInt64
    private let high: UInt64

    init(_ bytes: [UInt8]) {
        var low: UInt64 = 0, high: UInt64 = 0
        for byte in bytes {
            precondition(byte < 128, "an ASCII byte")
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
        self.low = low
        self.high = high
    }

    /// The set of the bytes `from...through`, e.g. the control characters.
    init(_ from: UInt8, through: UInt8, and more: [UInt8] = []) {
        self.init(Array(from...through) + more)
    }

    /// Whether `byte` is in the set (never a byte of 128 or more).
    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        let word = byte < 64 ? low : byte < 128 ? high : 0
        return word &>> UInt64(byte & 63) & 1 != 0
    }

    /// Whether any byte of `text` is in the set.
    @inline(__always)
    func occurs(in text: UnsafeBufferPointer<UInt8>) -> Bool {
        var found: UInt64 = 0
        for byte in text {
            let word = byte < 64 ? low : byte < 128 ? high : 0
            found |= word &>> UInt64(byte & 63)
        }
        return found & 1 != 0
    }
}
