import Foundation

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
/// words of one 32-byte block, so a lookup touches one cache line. About 1% false positives at
/// 10 bits a key, 0.1% at 16. The bytes come from `calloc`, so pages never written are never
/// resident: a small import into a large filter costs little memory.
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

    /// A filter sized for about `expectedKeys` keys at 8 to 16 bits a key (a power of two, 4 KiB
    /// at least), at most `maxBytes`.
    init(expectedKeys: Int, maxBytes: Int = defaultMaxBytes) {
        let wanted = expectedKeys > maxBytes / 2 ? maxBytes : max(4096, expectedKeys * 2)
        self.init(bytes: wanted)
    }

    /// The filter's size in bytes.
    var bytes: Int { storage.count * 4 }

    private static let salts: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x47B6_137B, 0x4497_4D91, 0x8824_AD5B, 0xA2B7_289D, 0x7054_95C7, 0x2DF1_424B, 0x9EFC_4947, 0x5C6B_FB31)

    /// The key's bits scrambled (the splitmix64 finalizer): match keys are FNV-1a hashes, whose
    /// high bits are poor alone.
    @inline(__always)
    private static func mix(_ key: Int64) -> UInt64 {
        var x = UInt64(bitPattern: key)
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }

    @inline(__always)
    private func block(_ hash: UInt64) -> UnsafeMutablePointer<UInt32> {
        storage.words + Int((hash >> 32) & blockMask) * 8
    }

    @inline(__always)
    private static func masks(_ hash: UInt64) -> SIMD8<UInt32> {
        let low = SIMD8<UInt32>(repeating: UInt32(truncatingIfNeeded: hash))
        let s = salts
        let salt = SIMD8<UInt32>(s.0, s.1, s.2, s.3, s.4, s.5, s.6, s.7)
        return SIMD8<UInt32>(repeating: 1) &<< ((low &* salt) &>> 27)
    }

    /// Whether `key` may have been inserted: false means surely not.
    func contains(_ key: Int64) -> Bool {
        let hash = Self.mix(key)
        let words = block(hash), masks = Self.masks(hash)
        for index in 0..<8 where words[index] & masks[index] == 0 { return false }
        return true
    }

    mutating func insert(_ key: Int64) {
        let hash = Self.mix(key)
        let words = block(hash), masks = Self.masks(hash)
        for index in 0..<8 { words[index] |= masks[index] }
        insertedCount += 1
    }
}
