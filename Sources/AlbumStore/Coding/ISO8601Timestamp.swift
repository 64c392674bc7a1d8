import FoundationEssentials

/// The one date format AlbumStore writes: ISO 8601 in UTC with milliseconds,
/// `2026-11-22T01:51:30.123Z`.
///
/// Every JSON, NDJSON, CSV and TSV output uses it, and so does the `Codable` of `Album`,
/// `HistoryEntry` and `ChangeSet`, whatever a coder's date strategy. Albums store whole
/// milliseconds, so a date written here reads back as the same `Date`. Formatting and parsing are
/// done by hand: no formatter, locale or calendar is involved, and dates before 1970 work too.
package enum ISO8601Timestamp {
    /// `date` as `YYYY-MM-DDTHH:MM:SS.mmmZ`, rounded to the nearest millisecond.
    ///
    /// Dates outside the years 0000 to 9999 are clamped to them (ISO 8601 needs an agreement
    /// between both sides beyond four digits).
    package static func string(from date: Date) -> String {
        var bytes = ByteBuffer(capacity: 24)
        append(date, to: &bytes)
        return bytes.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The date `text` names, or `nil` when it is not `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
    ///
    /// Accepts what `string(from:)` writes and the common variants of RFC 3339: no fraction or any
    /// number of its digits (beyond milliseconds they are dropped), a lower-case `t` or `z`, a
    /// space instead of the `T`, and a numeric offset, which is converted to UTC.
    package static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { milliseconds(parsing: $0) }.map(Date.init(millisecondsSince1970:))
    }

    // MARK: Formatting

    /// The whole milliseconds since 1970 nearest to `date`. Rounded, not truncated: a stored
    /// millisecond can come back from `Date`'s binary floating point a hair below itself.
    static func milliseconds(of date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard !milliseconds.isNaN else { return 0 }
        return Int64(Swift.min(Swift.max(milliseconds, Double(earliest)), Double(latest)))
    }

    /// 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z.
    static let earliest: Int64 = -62_167_219_200_000
    static let latest: Int64 = 253_402_300_799_999

    static func append(_ date: Date, to bytes: inout ByteBuffer) {
        append(milliseconds: milliseconds(of: date), to: &bytes)
    }

    /// The date `milliseconds` after 1970 (clamped to the years 0000 to 9999), as `string(from:)`
    /// writes it: 24 bytes.
    static func append(milliseconds: Int64, to bytes: inout ByteBuffer) {
        let clamped = Swift.min(Swift.max(milliseconds, earliest), latest)
        let (days, millisecondOfDay) = floorDivision(clamped, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let seconds = Int(millisecondOfDay / 1000), millisecond = Int(millisecondOfDay % 1000)
        bytes.append(length: 24) { text in
            // YYYY-MM-DDTHH:MM:SS.mmmZ
            writeDigits(Int(year / 100), to: text)
            writeDigits(Int(year % 100), to: text + 2)
            text[4] = UInt8(ascii: "-")
            writeDigits(Int(month), to: text + 5)
            text[7] = UInt8(ascii: "-")
            writeDigits(Int(day), to: text + 8)
            text[10] = UInt8(ascii: "T")
            writeDigits(seconds / 3600, to: text + 11)
            text[13] = UInt8(ascii: ":")
            writeDigits(seconds / 60 % 60, to: text + 14)
            text[16] = UInt8(ascii: ":")
            writeDigits(seconds % 60, to: text + 17)
            text[19] = UInt8(ascii: ".")
            text[20] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: millisecond / 100)
            writeDigits(millisecond % 100, to: text + 21)
            text[23] = UInt8(ascii: "Z")
        }
    }

    /// Writes `value` (0...99) as two ASCII digits.
    @inline(__always)
    private static func writeDigits(_ value: Int, to text: UnsafeMutablePointer<UInt8>) {
        text[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
        text[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
    }

    /// Quotient and remainder rounded toward minus infinity: dates before 1970 land on the right day.
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor, remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`,
    /// https://howardhinnant.github.io/date_algorithms.html).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The days from 1970-01-01 to a proleptic Gregorian date (Hinnant's `days_from_civil`).
    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    // MARK: Parsing

    static func milliseconds(parsing text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var reader = DigitReader(text: text)
        guard let year = reader.number(digits: 4), reader.skip("-"),
              let month = reader.number(digits: 2), reader.skip("-"),
              let day = reader.number(digits: 2), reader.skip("T") || reader.skip("t") || reader.skip(" "),
              let hour = reader.number(digits: 2), reader.skip(":"),
              let minute = reader.number(digits: 2), reader.skip(":"),
              let second = reader.number(digits: 2)
        else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        var millisecond: Int64 = 0
        if reader.skip(".") {
            var digits = 0
            while let digit = reader.digit() {
                if digits < 3 { millisecond = millisecond * 10 + digit }
                digits += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<Swift.max(digits, 3) { millisecond *= 10 }
        }
        var offsetMinutes: Int64 = 0
        if reader.skip("Z") || reader.skip("z") {
            // UTC
        } else if let sign: Int64 = reader.skip("+") ? 1 : reader.skip("-") ? -1 : nil {
            guard let hours = reader.number(digits: 2), reader.skip(":"), let minutes = reader.number(digits: 2),
                  hours < 24, minutes < 60
            else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        } else {
            return nil
        }
        guard reader.isAtEnd else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return (seconds - offsetMinutes * 60) * 1000 + millisecond
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Reads ASCII digits and punctuation from the front of some bytes.
    private struct DigitReader {
        let text: UnsafeBufferPointer<UInt8>
        var position = 0

        var isAtEnd: Bool { position == text.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < text.count, text[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func digit() -> Int64? {
            guard position < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[position]) else { return nil }
            position += 1
            return Int64(text[position - 1] - UInt8(ascii: "0"))
        }

        /// Exactly `digits` digits as a number.
        mutating func number(digits: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<digits {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }
}
