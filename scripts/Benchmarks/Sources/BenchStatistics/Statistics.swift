// Timing and summaries shared by bench-albums and bench-observe.

/// Runs `body` and returns its result with the elapsed seconds.
public func measure<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = ContinuousClock.now
    let result = try body()
    return (result, seconds(ContinuousClock.now - start))
}

public func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The `p`-th percentile (0...100) of `values`, nearest-rank.
public func percentile(_ values: [Double], _ p: Double) -> Double {
    precondition(!values.isEmpty, "no samples")
    let sorted = values.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[max(0, min(sorted.count - 1, rank))]
}

public func median(_ values: [Double]) -> Double { percentile(values, 50) }

/// Formats a number with `digits` decimals.
public func format(_ value: Double, _ digits: Int = 2) -> String {
    var text = String(Int((value * pow10(digits)).rounded()))
    while text.count <= digits { text = "0" + text }
    return digits == 0 ? text : String(text.dropLast(digits)) + "." + String(text.suffix(digits))
}

private func pow10(_ digits: Int) -> Double { (0..<digits).reduce(1.0) { value, _ in value * 10 } }
