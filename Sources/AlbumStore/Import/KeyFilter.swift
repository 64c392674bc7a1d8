import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A filter of 64-bit hashes (match keys, external-id hashes) of a fixed size, whatever the
/// number of keys: `contains` never says no for a key inserted (no false negatives), and says
/// yes for a key never inserted now and then (a false positive), more often as it fills.
///
/// Why: the import's duplicate check asks "has an earlier row had this key?" once or twice a
/// row. Exact sets (`KeySet`, 16 bytes a key) reached 900 MB at 20 million rows; a "maybe" only
/// sends the row to the check against the index, which has the last word anyway, so the
/// answers stay exact and only a false positive's lookup is paid.
///
/// A split-block Bloom filter (as Parquet's): a key sets one bit in each of the eight 32-bit
/// words of one 32-byte block, so a lookup touches one cache line. About 1.2% false positives
/// at 10 bits a key, 0.15% at 16, 18% at 5 (simulated). The bytes come from `calloc`, so pages
/// never written are never resident: a small import into a large filter costs little memory.
struct KeyFilter {
    /// The most bytes an import's filter takes (32 MiB: 10 bits a key for 26 million keys,
    /// 20 million rows with a third carrying an external id).
    static let defaultMaxBytes = 32 << 20

    private final class Storage {
        let words: UnsafeMutablePointer<UInt32>
        let count: Int
        init(words count: Int) {
            guard let raw = calloc(count, MemoryLayout<UInt32>.stride) else { fatalError("out of memory for a \(count * 4)-byte key filter") }
            words = raw.bindMemory(to: UInt32.self, capacity: count)
            self.count = count
        }
        deinit { free(words) }
    }

    private let storage: Storage
    /// The number of blocks less one (a power of two less one).
    private let blockMask: UInt64
    private(set) var insertedCount = 0

    /// A filter of `bytes` rounded down to a power of two, at least one 32-byte block.
    init(bytes: Int) {
        var blocks = 1
        while blocks * 2 * 32 <= bytes { blocks *= 2 }
        storage = Storage(words: blocks * 8)
        blockMask = UInt64(blocks - 1)
    }

    /// A filter sized for about `expectedKeys` keys at 16 to 32 bits a key (a power of two, 4
    /// KiB at least), at most `maxBytes`: a false positive costs the import a lookup, at worst a
    /// scan, so the few megabytes a small import can spare go to making them rare.
    init(expectedKeys: Int, maxBytes: Int = defaultMaxBytes) {
        var bytes = 4096
        while bytes < maxBytes && bytes / 2 < expectedKeys { bytes *= 2 }
        self.init(bytes: min(bytes, maxBytes))
    }

    /// The filter's size in bytes.
    var bytes: Int { storage.count * 4 }

    /// The key's bits scrambled (the splitmix64 finalizer): match keys are FNV-1a hashes, whose
    /// high bits are poor alone.
    @inline(__always)
    private static func mix(_ key: Int64) -> UInt64 {
        var x = UInt64(bitPattern: key)
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }

    /// The bit of one word of the block (the low 32 bits of the hash times the word's salt,
    /// whose top 5 bits pick one of 32): Parquet's salts.
    @inline(__always)
    private static func bit(_ low: UInt32, _ salt: UInt32) -> UInt32 { 1 &<< ((low &* salt) &>> 27) }

    /// Whether `key` may have been inserted: false means surely not.
    func contains(_ key: Int64) -> Bool {
        let hash = Self.mix(key)
        let w = storage.words + Int((hash >> 32) & blockMask) &* 8, low = UInt32(truncatingIfNeeded: hash)
        return w[0] & Self.bit(low, 0x47B6_137B) != 0 && w[1] & Self.bit(low, 0x4497_4D91) != 0
            && w[2] & Self.bit(low, 0x8824_AD5B) != 0 && w[3] & Self.bit(low, 0xA2B7_289D) != 0
            && w[4] & Self.bit(low, 0x7054_95C7) != 0 && w[5] & Self.bit(low, 0x2DF1_424B) != 0
            && w[6] & Self.bit(low, 0x9EFC_4947) != 0 && w[7] & Self.bit(low, 0x5C6B_FB31) != 0
    }

    /// Inserts `key`; returns whether it may have been there before (what `contains` said), in
    /// one visit to its block.
    @discardableResult
    mutating func insert(_ key: Int64) -> Bool {
        let hash = Self.mix(key)
        let w = storage.words + Int((hash >> 32) & blockMask) &* 8, low = UInt32(truncatingIfNeeded: hash)
        let b0 = Self.bit(low, 0x47B6_137B), b1 = Self.bit(low, 0x4497_4D91), b2 = Self.bit(low, 0x8824_AD5B)
        let b3 = Self.bit(low, 0xA2B7_289D), b4 = Self.bit(low, 0x7054_95C7), b5 = Self.bit(low, 0x2DF1_424B)
        let b6 = Self.bit(low, 0x9EFC_4947), b7 = Self.bit(low, 0x5C6B_FB31)
        let w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4], w5 = w[5], w6 = w[6], w7 = w[7]
        let missing = (~w0 & b0) | (~w1 & b1) | (~w2 & b2) | (~w3 & b3) | (~w4 & b4) | (~w5 & b5) | (~w6 & b6) | (~w7 & b7)
        insertedCount += 1
        guard missing != 0 else { return true }
        w[0] = w0 | b0; w[1] = w1 | b1; w[2] = w2 | b2; w[3] = w3 | b3
        w[4] = w4 | b4; w[5] = w5 | b5; w[6] = w6 | b6; w[7] = w7 | b7
        return false
    }
}
