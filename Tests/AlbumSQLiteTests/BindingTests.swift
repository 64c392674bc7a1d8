import Foundation
import AlbumSQLite
import Testing
import TestSupport

/// Every `Bindable` type stored in a real table and read back with its `ColumnDecodable` twin.
struct BindingTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// Stores `value` in an untyped column (no affinity, so nothing is converted) and reads it
    /// back together with the storage class SQLite chose.
    private func roundTrip<T: Bindable & ColumnDecodable>(_ value: T) throws -> (value: T?, storage: String) {
        try roundTrip(value, as: T.self)
    }

    private func roundTrip<T: Bindable, R: ColumnDecodable>(_ value: T, as type: R.Type) throws -> (value: R?, storage: String) {
        let connection = try directory.open()
        try connection.execute("CREATE TABLE v(x)")
        let insert = try connection.prepare("INSERT INTO v(x) VALUES (?)")
        try insert.bind(value, at: 1)
        try insert.run()
        let row = try connection.first("SELECT x, typeof(x) FROM v") { row -> (R?, String) in
            (try row[0, as: R?.self], try row[1, as: String.self])
        }
        let (readBack, storage) = try #require(row)
        return (readBack, storage)
    }

    @Test(arguments: [Int.max, Int.min, 0, -1, 42])
    func intRoundTripsAsInteger(value: Int) throws {
        let result = try roundTrip(value)
        #expect(result.value == value)
        #expect(result.storage == "integer")
    }

    @Test(arguments: [Int64.max, Int64.min, 0, 1 << 40])
    func int64RoundTripsAsInteger(value: Int64) throws {
        let result = try roundTrip(value)
        #expect(result.value == value)
        #expect(result.storage == "integer")
    }

    @Test(arguments: [Int32.max, Int32.min, 0, -7])
    func int32RoundTripsAsInteger(value: Int32) throws {
        let result = try roundTrip(value)
        #expect(result.value == value)
        #expect(result.storage == "integer")
    }

    @Test(arguments: [Double.pi, -1.5e300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity, -.infinity, 2.0])
    func doubleRoundTripsAsReal(value: Double) throws {
        let result = try roundTrip(value)
        #expect(result.value == value)
        #expect(result.storage == "real")
    }

    @Test(arguments: [true, false])
    func boolRoundTripsAsIntegerOneOrZero(value: Bool) throws {
        let result = try roundTrip(value)
        #expect(result.value == value)
        #expect(result.storage == "integer")
        let connection = try directory.open()
        #expect(try connection.scalar("SELECT x FROM v", as: Int.self) == (value ? 1 : 0))
    }

    @Test func stringRoundTripsAsText() throws {
        let result = try roundTrip("Station to Station")
        #expect(result.value == "Station to Station")
        #expect(result.storage == "text")
    }

    @Test func substringBindsOnlyItsSlice() throws {
        let base = "[[Heroes]]"
        let slice = base.dropFirst(2).dropLast(2)
        let result = try roundTrip(slice, as: String.self)
        #expect(result.value == "Heroes")
        #expect(result.storage == "text")
    }

    @Test func dataRoundTripsAsBlob() throws {
        let bytes = Data([0x00, 0xFF, 0x10, 0x00, 0x7F])
        let result = try roundTrip(bytes)
        #expect(result.value == bytes)
        #expect(result.storage == "blob")
    }

    @Test func byteArrayRoundTripsAsBlob() throws {
        let bytes: [UInt8] = [0x00, 0x01, 0xFE, 0xFF, 0x00]
        let result = try roundTrip(bytes)
        #expect(result.value == bytes)
        #expect(result.storage == "blob")
    }

    @Test func optionalNilBindsNull() throws {
        let result = try roundTrip(String?.none)
        #expect(result.value == .some(nil))
        #expect(result.storage == "null")
    }

    @Test func optionalWithValueBindsTheValue() throws {
        let result = try roundTrip(Int?.some(7))
        #expect(result.value == .some(7))
        #expect(result.storage == "integer")
    }

    @Test func nilArgumentOfRunBindsNull() throws {
        let connection = try directory.open()
        try connection.execute("CREATE TABLE v(x)")
        try connection.run("INSERT INTO v(x) VALUES (?)", nil)
        #expect(try connection.scalar("SELECT typeof(x) FROM v", as: String.self) == "null")
        #expect(try connection.scalar("SELECT count(*) FROM v WHERE x IS NULL", as: Int.self) == 1)
    }

    @Test(arguments: [
        SQLiteValue.null, .integer(-42), .integer(.max), .real(0.25), .text("Ashes"), .text(""),
        .blob(Data([1, 2, 3])), .blob(Data()),
    ])
    func sqliteValueRoundTripsWithItsStorageClass(value: SQLiteValue) throws {
        let result = try roundTrip(value)
        #expect(result.value == value)
        let expectedStorage = switch value {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
        #expect(result.storage == expectedStorage)
    }

    @Test func emptyStringComesBackEmptyNotNull() throws {
        let result = try roundTrip("")
        #expect(result.value == .some(""))
        #expect(result.storage == "text")
    }

    @Test func emptyDataComesBackEmptyNotNull() throws {
        let result = try roundTrip(Data())
        #expect(result.value == .some(Data()))
        #expect(result.storage == "blob")
    }

    @Test func emptyByteArrayComesBackEmptyNotNull() throws {
        let result = try roundTrip([UInt8]())
        #expect(result.value == .some([]))
        #expect(result.storage == "blob")
    }

    @Test func hugeStringRoundTrips() throws {
        let text = String(repeating: "Warszawa ☃ Ziggy 🎸 ", count: 300_000)
        #expect(text.utf8.count > 7_000_000)
        let result = try roundTrip(text)
        #expect(result.value?.utf8.count == text.utf8.count)
        #expect(result.value == text)
        let connection = try directory.open()
        #expect(try connection.scalar("SELECT length(x) FROM v", as: Int.self) == text.unicodeScalars.count)
    }

    @Test(arguments: [
        "👩‍👩‍👧‍👦🎸🇯🇵",            // emoji: ZWJ sequence, flag
        "e\u{301}le\u{300}ve\u{308}",  // combining accents, not precomposed
        "東京の音楽 한국어 中文",       // CJK
        "Ölçü Ωμέγα Привет",
    ])
    func nonASCIITextRoundTripsByteForByte(text: String) throws {
        let result = try roundTrip(text)
        // String == compares canonical equivalence; the bytes must be exactly the same.
        #expect(result.value.map { Array($0.utf8) } == Array(text.utf8))
        let connection = try directory.open()
        #expect(try connection.scalar("SELECT length(x) FROM v", as: Int.self) == text.unicodeScalars.count)
    }

    /// Texts up to 15 bytes take the small-string path of `String.decode`, longer ones the other.
    @Test(arguments: [
        "", "a", "abcdefghijklmn", "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq",
        "éééééééa", "éééééééé", "éééééééé!", "☃☃☃☃☃", "☃☃☃☃☃a",
        "\u{0}", "a\u{0}b", "abcdefghijklmn\u{0}", "abcdefghijklmno\u{0}",
    ])
    func textAroundTheSmallStringLimitRoundTrips(text: String) throws {
        let result = try roundTrip(text)
        #expect(result.value.map { Array($0.utf8) } == Array(text.utf8))
        #expect(result.storage == "text")
    }

    /// SQLite stores whatever bytes it is given as text; reading them never traps and repairs
    /// each invalid sequence with U+FFFD, as `String(decoding:as:)` does, short or long.
    @Test(arguments: [
        [0xFF], [0x61, 0xC3], [0xE2, 0x98], [0x61, 0x80, 0x62],
        Array("0123456789abcdef".utf8) + [0xFE, 0x41], [0xF0, 0x9F, 0x8E] + Array("guitar solos forever".utf8),
    ] as [[UInt8]])
    func invalidUTF8TextIsRepaired(bytes: [UInt8]) throws {
        let connection = try directory.open()
        try connection.execute("CREATE TABLE v(x)")
        try connection.run("INSERT INTO v(x) VALUES (CAST(? AS TEXT))", bytes)
        #expect(try connection.scalar("SELECT typeof(x) FROM v", as: String.self) == "text")
        let text = try #require(try connection.scalar("SELECT x FROM v", as: String.self))
        #expect(text == String(decoding: bytes, as: UTF8.self))
        #expect(text.contains("\u{FFFD}"))
    }

    @Test func valuesConvertLikeSQLiteWhenReadAsAnotherType() throws {
        let connection = try directory.open()
        let row = try connection.first("SELECT 42, '17', 2.5, NULL") { row in
            (try row[0, as: String.self], try row[1, as: Int.self], try row[2, as: String.self],
             try row[3, as: String?.self], try row[3, as: SQLiteValue.self])
        }
        let (integerAsText, textAsInteger, realAsText, null, nullValue) = try #require(row)
        #expect(integerAsText == "42")
        #expect(textAsInteger == 17)
        #expect(realAsText == "2.5")
        #expect(null == nil)
        #expect(nullValue == .null)
    }

    @Test func textWithEmbeddedNULRoundTrips() throws {
        let text = "before\u{0}middle\u{0}after"
        let result = try roundTrip(text)
        #expect(result.value.map { Array($0.utf8) } == Array(text.utf8))
        #expect(result.storage == "text")
        let connection = try directory.open()
        #expect(try connection.scalar("SELECT length(CAST(x AS BLOB)) FROM v", as: Int.self) == text.utf8.count)
    }

    @Test func tenMegabyteBlobRoundTrips() throws {
        let size = 10 * 1024 * 1024
        var bytes = Data(count: size)
        bytes.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            for index in 0..<size { buffer[index] = UInt8(truncatingIfNeeded: index ^ (index >> 8) ^ (index >> 16)) }
        }
        let result = try roundTrip(bytes)
        #expect(result.value?.count == size)
        #expect(result.value == bytes)
    }
}
