/// Gapped position keys for the ordered list, computed without overflow whatever keys the file
/// holds (another program may have written keys near the limits of a 64-bit integer).
enum PositionKey {
    /// The distance between the keys of appended albums: room for 32 halvings.
    static let gap: Int64 = 1 << 32

    /// One below the smallest key and one above the largest: the bounds no key reaches.
    static let floor = Int128(Int64.min) - 1
    static let ceiling = Int128(Int64.max) + 1

    /// A key strictly between the neighbours' keys (`nil`: no neighbour on that side), a `gap`
    /// away from the one neighbour at either end of the list; `nil` when no key is free there.
    static func between(_ lower: Int64?, _ upper: Int64?) -> Int64? {
        let low = lower.map { Int128($0) } ?? floor
        let high = upper.map { Int128($0) } ?? ceiling
        switch (lower, upper) {
        case (nil, nil): return 0
        case (nil, _?) where high - Int128(gap) > low: return Int64(high - Int128(gap))
        case (_?, nil) where low + Int128(gap) < high: return Int64(low + Int128(gap))
        default:
            guard high - low >= 2 else { return nil }
            return Int64(low + (high - low) / 2)
        }
    }

    /// `count` keys evenly spread strictly between `low` and `high`, with one free key among them
    /// at `free` (0-based, 0...count); `nil` when they would be closer than `minimumStep`.
    static func spread(
        count: Int, between low: Int128, and high: Int128, freeAt free: Int, minimumStep: Int128
    ) -> (keys: [Int64], free: Int64)? {
        let step = (high - low) / Int128(count + 2)
        guard step >= max(1, minimumStep) else { return nil }
        var keys: [Int64] = []
        keys.reserveCapacity(count)
        var key = low
        var freeKey: Int64 = 0
        for rank in 0...count {
            key += step
            if rank == free { freeKey = Int64(key) } else { keys.append(Int64(key)) }
        }
        return (keys, freeKey)
    }
}
