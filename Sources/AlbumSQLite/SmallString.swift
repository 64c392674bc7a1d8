/// Builds a small `String` (up to 15 ASCII bytes, stored inline without an allocation) straight
/// from its bytes.
///
/// `String(unsafeUninitializedCapacity:initializingUTF8With:)` makes the same value, but through
/// a call into the standard library, a closure and a zero-filled buffer: about 80 instructions
/// for a text that takes 15 here. Most columns of a catalog (an artist, a genre, a year as text)
/// are that short.
///
/// The value is the standard library's own small-string form on 64-bit little-endian platforms
/// (String's layout is frozen by its ABI): the bytes in order over the two words, the top byte
/// holding the discriminator (immortal, ASCII, small: 0xE) and the count. `smallStringLayoutIsKnown`
/// checks that form against a literal the compiler built, so on a platform or a standard library
/// where it differs this returns `nil` and the caller takes the standard path. Non-ASCII bytes
/// return `nil` too: they need UTF-8 validation.
///
/// - Precondition: `count` is in `0...15` and `bytes` points to at least `count` readable bytes.
@inlinable @inline(__always)
func smallASCIIString(_ bytes: UnsafePointer<UInt8>, count: Int) -> String? {
    #if _pointerBitWidth(_64) && _endian(little)
    guard smallStringLayoutIsKnown else { return nil }
    let raw = UnsafeRawPointer(bytes)
    var leading: UInt64 = 0
    var trailing: UInt64 = 0
    if count >= 8 {
        leading = raw.loadUnaligned(as: UInt64.self)
        // Bytes 8..<count are the high bytes of the word that ends at `count`; none when count is 8.
        let tail = raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        trailing = tail >> UInt64((16 &- count) &* 8)
    } else if count >= 4 {
        // Two 4-byte words that overlap in the middle: the shared bytes are equal, so OR is exact.
        let head = UInt64(raw.loadUnaligned(as: UInt32.self))
        let tail = UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
        leading = head | tail &<< UInt64((count &- 4) &* 8)
    } else if count > 0 {
        // 1 to 3 bytes: the first, the middle and the last, overlapping as needed.
        let middle = count >> 1, last = count &- 1
        leading = UInt64(bytes[0])
            | UInt64(bytes[middle]) &<< UInt64(middle &* 8)
            | UInt64(bytes[last]) &<< UInt64(last &* 8)
    }
    guard (leading | trailing) & 0x8080_8080_8080_8080 == 0 else { return nil }
    let discriminator = (0xE0 | UInt64(truncatingIfNeeded: count)) &<< 56
    // Moved out of the words rather than bit-cast: a cast copies, and the copy costs a retain
    // (a no-op on a small string, but a call).
    var words = (leading, trailing | discriminator)
    return withUnsafeMutablePointer(to: &words) {
        $0.withMemoryRebound(to: String.self, capacity: 1) { $0.move() }
    }
    #else
    return nil
    #endif
}

/// Whether a small ASCII string has the form `smallASCIIString` builds: checked on a literal,
/// which the compiler builds with the standard library's own code (and folds to a constant).
@inlinable @inline(__always)
var smallStringLayoutIsKnown: Bool {
    #if _pointerBitWidth(_64) && _endian(little)
    guard MemoryLayout<String>.size == 16 else { return false }
    let bits = unsafeBitCast("ab" as String, to: (UInt64, UInt64).self)
    return bits.0 == 0x6261 && bits.1 == 0xE200_0000_0000_0000
    #else
    return false
    #endif
}
