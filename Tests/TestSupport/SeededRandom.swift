import Foundation

/// A small random number generator (SplitMix64) whose numbers a seed decides, so that a failure
/// of a randomized test can be replayed: the test names the seed in its failure, and
/// `ALBUMSTORE_TEST_SEED=<seed>` gives the same numbers again. Without it, each run draws a
/// fresh seed, so that runs together cover more cases than one fixed seed would.
public struct SeededRandom: RandomNumberGenerator {
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64 = SeededRandom.seedFromEnvironment()) {
        self.seed = seed
        state = seed
    }

    /// `ALBUMSTORE_TEST_SEED` when set, otherwise a fresh seed.
    public static func seedFromEnvironment() -> UInt64 {
        environmentSeed ?? .random(in: .min ... .max)
    }

    /// `ALBUMSTORE_TEST_SEED`, when set: a test with seeds of its own (its arguments) adds it to
    /// each, so that the variable changes every randomized test's numbers.
    public static var environmentSeed: UInt64? {
        ProcessInfo.processInfo.environment["ALBUMSTORE_TEST_SEED"].flatMap { UInt64($0) }
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
