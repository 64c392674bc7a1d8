/// A set of row ids kept as sorted, disjoint ranges: a bulk insert of a million albums is one range.
public struct RowIDs: Sendable, Hashable, Sequence, Codable {
    public private(set) var ranges: [ClosedRange<Int64>] = []

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

    public var isEmpty: Bool { ranges.isEmpty }
    public var count: Int { ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound + 1) } }

    public func contains(_ id: Int64) -> Bool {
        var low = 0, high = ranges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if ranges[middle].contains(id) { return true }
            if id < ranges[middle].lowerBound { high = middle - 1 } else { low = middle + 1 }
        }
        return false
    }

    public func makeIterator() -> FlattenSequence<[ClosedRange<Int64>]>.Iterator { ranges.joined().makeIterator() }

    /// Encoded as a plain array of ids, the easiest form for a consumer.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Array(self))
    }

    public init(from decoder: Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([Int64].self))
    }
}
