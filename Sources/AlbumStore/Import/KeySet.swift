/// A set of 64-bit hashes (match keys, external-id hashes) for the import's duplicate check.
///
/// Why not `Set<Int64>`: it runs SipHash over every key, and an import asks it once or twice a
/// row, a million times; these keys are hashes already, so their bits index the table as they
/// are. Open addressing with linear probing, at most half full: 16 bytes a key on average.
struct KeySet {
    private var slots: [Int64]
    private var mask: Int
    private(set) var count = 0
    /// 0 marks an empty slot, so the key 0 is kept aside.
    private var hasZero = false

    init(capacity: Int = 1024) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: 0, count: size)
        mask = size - 1
    }

    @inline(__always)
    private func start(_ key: Int64) -> Int {
        // Mix the high bits in: keys of other origins (external ids hashed) are hashes too, but
        // cheap mixing costs nothing next to the cache miss.
        Int(truncatingIfNeeded: UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15 >> 17) & mask
    }

    func contains(_ key: Int64) -> Bool {
        if key == 0 { return hasZero }
        var index = start(key)
        while true {
            let slot = slots[index]
            if slot == key { return true }
            if slot == 0 { return false }
            index = (index + 1) & mask
        }
    }

    mutating func insert(_ key: Int64) {
        if key == 0 { hasZero = true; return }
        if (count + 1) * 2 > slots.count { grow() }
        var index = start(key)
        while true {
            let slot = slots[index]
            if slot == key { return }
            if slot == 0 {
                slots[index] = key
                count += 1
                return
            }
            index = (index + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        mask = slots.count - 1
        count = 0
        for key in old where key != 0 { insert(key) }
    }
}
