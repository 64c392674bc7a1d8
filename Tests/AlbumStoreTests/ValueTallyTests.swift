import Testing
@testable import AlbumStore

/// How a Library.xml album's genre and year are chosen: the most common value over its tracks,
/// the first seen among equals, whatever the number of distinct values.
struct ValueTallyTests {
    @Test func theMostCommonValueWinsAndATieGoesToTheFirstSeen() {
        var tally = ValueTally()
        #expect(tally.mostCommon == nil)
        for value in ["Jazz", "Blues", "Blues", "Jazz"] { tally.count(value) }
        #expect(tally.mostCommon == "Jazz")
        tally.count("Blues")
        #expect(tally.mostCommon == "Blues")
    }

    @Test func aValueCountedBeforeAndAfterTheIndexIsBuiltIsOneValue() {
        var tally = ValueTally()
        tally.count("v3")
        for number in 0..<20 { tally.count("v\(number)") }
        #expect(tally.mostCommon == "v3")
    }

    @Test(.timeLimit(.minutes(1))) func manyDistinctValuesAreCountedInLinearTime() {
        // A search of the values so far for each one (quadratic) ran past the time limit at
        // this count; how fast the counting is belongs to the benchmarks.
        let count = 100_000
        var tally = ValueTally()
        for number in 0..<count { tally.count("G\(number)") }
        tally.count("G\(count - 1)")
        #expect(tally.mostCommon == "G\(count - 1)")
    }
}
