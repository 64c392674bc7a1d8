import Testing
@testable import AlbumStore
import TestSupport

struct KeySetTests {
    @Test func holdsWhatSetHoldsThroughGrowthAndZero() {
        var keys = KeySet(capacity: 4)
        var reference = Set<Int64>()
        var generator = SeededRandom()
        let seed = generator.seed
        for round in 0..<20_000 {
            // Small numbers collide in the table's low bits; zero and the extremes are edge cases.
            let key: Int64 = switch round % 4 {
            case 0: Int64.random(in: -50...50, using: &generator)
            case 1: [0, .min, .max][round % 3]
            default: Int64.random(in: .min ... .max, using: &generator)
            }
            #expect(keys.contains(key) == reference.contains(key), "key \(key), seed \(seed)")
            keys.insert(key)
            reference.insert(key)
        }
        #expect(keys.count == reference.subtracting([0]).count, "seed \(seed)")
        #expect(reference.allSatisfy(keys.contains), "seed \(seed)")
    }
}
