import Foundation
import Testing
@testable import AlbumStore
import TestSupport

struct ISO8601TimestampTests {
    @Test(arguments: [
        (Int64(1_795_312_290_123), "2026-11-22T01:51:30.123Z"),
        (0, "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (-14_182_940_000, "1969-07-20T20:17:40.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
    func formatsUTCWithMilliseconds(milliseconds: Int64, text: String) {
        let date = Date(millisecondsSince1970: milliseconds)

        #expect(ISO8601Timestamp.string(from: date) == text)
        #expect(ISO8601Timestamp.date(from: text) == date)
    }

    @Test func agreesWithFoundationsFormatter() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for milliseconds in stride(from: Int64(-2_000_000_000_000), to: 4_000_000_000_000, by: 77_777_777_777) {
            let date = Date(millisecondsSince1970: milliseconds)
            #expect(ISO8601Timestamp.string(from: date) == formatter.string(from: date))
        }
    }

    @Test func everyStoredMillisecondReadsBackAsTheSameDate() {
        // A stored millisecond can come back from Date's binary floating point a hair below
        // itself: truncating would then write the millisecond before.
        var generator = SeededRandom()
        let seed = generator.seed
        for _ in 0..<100_000 {
            let milliseconds = Int64.random(in: 0...4_102_444_800_000, using: &generator)
            let date = Date(millisecondsSince1970: milliseconds)
            let text = ISO8601Timestamp.string(from: date)
            #expect(ISO8601Timestamp.milliseconds(of: date) == milliseconds, "seed \(seed)")
            #expect(ISO8601Timestamp.date(from: text) == date, "\(milliseconds) -> \(text), seed \(seed)")
        }
    }

    @Test func roundsToTheNearestMillisecond() {
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 0.0004)) == "1970-01-01T00:00:00.000Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 0.0006)) == "1970-01-01T00:00:00.001Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 59.9996)) == "1970-01-01T00:01:00.000Z")
    }

    @Test func clampsDatesBeyondFourDigitYears() {
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 1e15)) == "9999-12-31T23:59:59.999Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: -1e15)) == "0000-01-01T00:00:00.000Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00.000Z")
    }

    @Test(arguments: [
        ("2026-11-22T01:51:30Z", "2026-11-22T01:51:30.000Z"),
        ("2026-11-22T01:51:30.1Z", "2026-11-22T01:51:30.100Z"),
        ("2026-11-22T01:51:30.123456789Z", "2026-11-22T01:51:30.123Z"),
        ("2026-11-22t01:51:30.123z", "2026-11-22T01:51:30.123Z"),
        ("2026-11-22 01:51:30.123Z", "2026-11-22T01:51:30.123Z"),
        ("2026-11-22T02:51:30.123+01:00", "2026-11-22T01:51:30.123Z"),
        ("2026-11-21T20:21:30.123-05:30", "2026-11-22T01:51:30.123Z"),
        ("2024-02-29T00:00:00Z", "2024-02-29T00:00:00.000Z"),
    ])
    func readsTheCommonVariants(text: String, normalized: String) throws {
        let date = try #require(ISO8601Timestamp.date(from: text))
        #expect(ISO8601Timestamp.string(from: date) == normalized)
    }

    @Test(arguments: [
        "", "2026-11-22", "2026-11-22T01:51:30", "2026-11-22T01:51:30.Z", "2026-11-22T01:51:30.123",
        "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-22T24:00:00Z",
        "2026-11-22T01:60:00Z", "2026-11-22T01:51:60Z", "2026-11-22T01:51:30.123Zjunk", "26-11-22T01:51:30Z",
        "2026-11-22T01:51:30+0100", "２０２６-11-22T01:51:30Z", "1795312290123",
    ])
    func refusesWhatIsNotAnISO8601DateTime(text: String) {
        #expect(ISO8601Timestamp.date(from: text) == nil)
    }
}
