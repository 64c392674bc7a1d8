/// Line numbers as ranges of consecutive lines, in ascending order, up to `maxRanges` of them.
struct LineRanges: Sendable, Hashable {
    /// The most ranges kept: past it, `isComplete` is false and later lines are only counted.
    static let maxRanges = 100_000

    private(set) var ranges: [ClosedRange<Int>] = []
    /// How many lines were inserted, kept or not.
    private(set) var count = 0
    /// Whether every line inserted is in `ranges`.
    private(set) var isComplete = true

    /// Adds `line`, which is above every line added before.
    mutating func insert(_ line: Int) {
        count += 1
        if let last = ranges.last, last.upperBound == line - 1 {
            ranges[ranges.count - 1] = last.lowerBound...line
        } else if ranges.count < Self.maxRanges {
            ranges.append(line...line)
        } else {
            isComplete = false
        }
    }

    var isEmpty: Bool { count == 0 }

    /// The first `limit` lines, in order.
    func first(_ limit: Int) -> [Int] {
        var lines: [Int] = []
        for range in ranges {
            for line in range {
                guard lines.count < limit else { return lines }
                lines.append(line)
            }
        }
        return lines
    }
}
