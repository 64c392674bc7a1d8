/// How often each value was seen, in the order first seen: an album's genres or years, counted
/// over its tracks.
///
/// A search of the earlier values finds a value while they are few; past `indexedAbove` a
/// dictionary does, so an album whose tracks each give another value is counted in linear time.
struct ValueTally {
    private var values: [String] = []
    private var counts: [Int] = []
    private var indexByValue: [String: Int] = [:]
    /// Most albums have one genre and one year: no dictionary for them.
    private static let indexedAbove = 8

    mutating func count(_ value: String) {
        let found = values.count > Self.indexedAbove ? indexByValue[value] : values.firstIndex(of: value)
        if let found {
            counts[found] += 1
            return
        }
        values.append(value)
        counts.append(1)
        if values.count > Self.indexedAbove {
            if indexByValue.isEmpty {
                for (index, known) in values.enumerated() { indexByValue[known] = index }
            } else {
                indexByValue[value] = values.count - 1
            }
        }
    }

    /// The most common value, the first seen among equals; `nil` when none was counted.
    var mostCommon: String? {
        var best: Int?
        for index in counts.indices where counts[index] > best.map({ counts[$0] }) ?? 0 { best = index }
        return best.map { values[$0] }
    }
}
