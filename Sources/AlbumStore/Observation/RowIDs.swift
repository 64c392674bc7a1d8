/// A set of row ids kept as sorted, disjoint ranges: a bulk insert of a million albums is one range.
public struct RowIDs: Sendable, Hashable, Sequence, Codable {
    /// The ids as ranges, ascending, neither overlapping nor adjacent.
    public private(set) var ranges: [ClosedRange<Int64>] = []

    /// The empty set.
    public init() {}

    /// The set of `ids` (in any order, repeats allowed).
    public init(_ ids: some Sequence<Int64>) {
        for id in ids.sorted() { insert(id...id) }
    }

    /// Adds a range; ranges must come in ascending order of their lower bound.
    mutating func insert(_ range: ClosedRange<Int64>) {
        if let last = ranges.last, range.lowerBound <= last.upperBound &+ 1 {
            ranges[ranges.count - 1] = last.lowerBound...Swift.max(last.upperBound, range.upperBound)
        } else {
            ranges.append(range)
        }
    }

    /// The ranges as text, "1-5,9-9": how the history stores a bulk append's ids.
    var rangeList: String { ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",") }

    /// Reads `rangeList`'s form; `nil` when the text is not in it.
    init?(rangeList: String) {
        for part in rangeList.split(separator: ",") {
            let bounds = part.split(separator: "-").compactMap { Int64($0) }
            guard bounds.count == 2, bounds[0] <= bounds[1] else { return nil }
            insert(bounds[0]...bounds[1])
        }
    }

    /// The set without `ids` (ascending), splitting ranges around them.
    func removing(_ ids: [Int64]) -> RowIDs {
        var result = RowIDs()
        var next = ids.makeIterator()
        var gone = next.next()
        for range in ranges {
            var start = range.lowerBound
            while let id = gone, id <= range.upperBound {
                if id >= start {
                    if id > start { result.insert(start...(id - 1)) }
                    start = id + 1
                }
                gone = next.next()
            }
            if start <= range.upperBound { result.insert(start...range.upperBound) }
        }
        return result
    }

    /// Whether the set holds no id.
    public var isEmpty: Bool { ranges.isEmpty }
    /// How many ids the set holds (at most `Int.max`: ids read from a file may span any range).
    public var count: Int {
        let total = ranges.reduce(Int128(0)) { $0 + Int128($1.upperBound) - Int128($1.lowerBound) + 1 }
        return Int(clamping: total)
    }

    /// Whether `id` is in the set, by binary search over the ranges: O(log ranges).
    public func contains(_ id: Int64) -> Bool {
        var low = 0, high = ranges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if ranges[middle].contains(id) { return true }
            if id < ranges[middle].lowerBound { high = middle - 1 } else { low = middle + 1 }
        }
        return false
    }

    /// The ids in ascending order.
    public func makeIterator() -> FlattenSequence<[ClosedRange<Int64>]>.Iterator { ranges.joined().makeIterator() }

    /// Encoded as a plain array of ids, the easiest form for a consumer.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Array(self))
    }

    /// Reads the array of ids `encode(to:)` writes, in any order.
    public init(from decoder: Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([Int64].self))
    }
}
