import Testing
@testable import AlbumStore
import TestSupport

struct KeyFilterTests {
    @Test(arguments: [32, 4096, 1 << 16])
    func neverSaysNoToAKeyItHolds(bytes: Int) {
        var filter = KeyFilter(bytes: bytes)
        var generator = SeededRandom()
        let seed = generator.seed
        var inserted: [Int64] = [0, .min, .max, -1, 1]
        for _ in 0..<20_000 { inserted.append(Int64.random(in: .min ... .max, using: &generator)) }
        // Small numbers and near neighbours: FNV keys of similar texts differ in few bits.
        inserted += (-500...500).map(Int64.init)
        var disagreements = 0
        for key in inserted {
            // `insert` answers what `contains` would have said before it.
            let before = filter.contains(key)
            if filter.insert(key) != before { disagreements += 1 }
            if !filter.contains(key) { disagreements += 1 }
        }
        #expect(disagreements == 0, "seed \(seed)")
        #expect(inserted.allSatisfy(filter.contains), "seed \(seed)")
        #expect(inserted.allSatisfy { filter.insert($0) }, "seed \(seed)")
        #expect(filter.insertedCount == 2 * inserted.count, "seed \(seed)")
    }

    @Test func itsSizeIsBoundedWhateverTheKeys() {
        #expect(KeyFilter(bytes: 1).bytes == 32)
        #expect(KeyFilter(bytes: 100).bytes == 64)
        #expect(KeyFilter(bytes: 1 << 20).bytes == 1 << 20)
        #expect(KeyFilter(expectedKeys: 10).bytes == 4096)
        #expect(KeyFilter(expectedKeys: 100_000).bytes == 262_144)
        #expect(KeyFilter(expectedKeys: 20_000_000).bytes == KeyFilter.defaultMaxBytes)
        #expect(KeyFilter(expectedKeys: .max).bytes == KeyFilter.defaultMaxBytes)
        #expect(KeyFilter(expectedKeys: .max, maxBytes: 1 << 16).bytes == 1 << 16)
        // Inserting does not grow it.
        var filter = KeyFilter(bytes: 4096)
        for key in 0..<100_000 { filter.insert(Int64(key) &* 0x1E37_79B9_7F4A_7C15) }
        #expect(filter.bytes == 4096)
    }

    @Test func falsePositivesAreRareAtTenBitsAKey() {
        var filter = KeyFilter(bytes: 1 << 17)   // 1,048,576 bits
        var generator = SeededRandom()
        let seed = generator.seed
        for _ in 0..<104_857 { filter.insert(Int64.random(in: .min ... .max, using: &generator)) }
        var positives = 0
        for _ in 0..<100_000 where filter.contains(Int64.random(in: .min ... .max, using: &generator)) { positives += 1 }
        // About 1% expected for a split-block filter at 10 bits a key.
        #expect(positives < 3_000, "seed \(seed)")
    }

    @Test func aTinyFilterSaturatesAndThenSaysMaybeToEverything() {
        var filter = KeyFilter(bytes: 32)
        for key in 0..<2_000 { filter.insert(Int64(key) &* 0x2545_F491_4F6C_DD1D) }
        var generator = SeededRandom()
        let seed = generator.seed
        #expect((0..<1_000).allSatisfy { _ in filter.contains(Int64.random(in: .min ... .max, using: &generator)) }, "seed \(seed)")
    }
}
