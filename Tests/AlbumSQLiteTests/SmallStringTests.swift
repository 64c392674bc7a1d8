import Foundation
@testable import AlbumSQLite
import Testing

/// Texts of up to 15 ASCII bytes are built in place as small strings (`smallASCIIString`), not
/// through the standard library's initializers: the result must be the very value the standard
/// library makes, bit for bit, or every later use of the string would misread it.
struct SmallStringTests {
    /// The two words of a string, as stored.
    private func bits(_ string: String) -> (UInt64, UInt64) {
        unsafeBitCast(string, to: (UInt64, UInt64).self)
    }

    /// A text of `count` ASCII bytes that uses every bit a byte may have, NUL included.
    private func asciiBytes(count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8((seed &* 31 &+ $0 &* 17) % 128) }
    }

    @Test func theLayoutCheckHoldsOnThisPlatformSoTheFastPathIsTested() {
        #if _pointerBitWidth(_64) && _endian(little)
        #expect(smallStringLayoutIsKnown)
        #endif
    }

    @Test(arguments: 0...15)
    func asciiTextOfEachLengthIsTheStandardLibrarysOwnSmallString(count: Int) throws {
        guard smallStringLayoutIsKnown else { return }
        for seed in 0..<64 {
            // Bytes past the text are not zero: nothing of them may leak into the string.
            let bytes = asciiBytes(count: count, seed: seed) + [0xFF, 0xEE, 0xDD, 0xCC, 0xBB, 0xAA, 0x99, 0x88]
            let made = try #require(bytes.withUnsafeBufferPointer { smallASCIIString($0.baseAddress!, count: count) })
            let expected = String(decoding: bytes[..<count], as: UTF8.self)
            #expect(bits(made) == bits(expected))
            #expect(made == expected)
            #expect(made.utf8.count == count)
            #expect(Array(made.utf8) == Array(bytes[..<count]))
            #expect(made.hashValue == expected.hashValue)
            #expect(made + "x" == expected + "x")
        }
    }

    @Test(arguments: 1...15)
    func aNonASCIIByteAnywhereLeavesItToTheValidatingPath(count: Int) {
        for position in 0..<count {
            var bytes = Array(repeating: UInt8(ascii: "a"), count: count)
            bytes[position] = 0xC3
            #expect(bytes.withUnsafeBufferPointer { smallASCIIString($0.baseAddress!, count: count) } == nil)
        }
    }

    /// Through SQLite: every length up to the limit and past it, ASCII and not, NUL included,
    /// read back as the same bytes and the same value the standard library makes.
    @Test func textsReadFromATableAreTheStandardLibrarysStrings() throws {
        let directory = try TemporaryDirectory()
        let connection = try directory.open()
        try connection.execute("CREATE TABLE v(id INTEGER PRIMARY KEY, x TEXT)")
        var texts: [[UInt8]] = []
        for count in 0...20 {
            texts.append(asciiBytes(count: count, seed: count))
            texts.append(Array(String(repeating: "é", count: count / 2).utf8) + (count % 2 == 1 ? [0x21] : []))
        }
        let insert = try connection.prepare("INSERT INTO v(id, x) VALUES (?, CAST(? AS TEXT))")
        for (id, bytes) in texts.enumerated() {
            try insert.bind(Int64(id), at: 1)
            try insert.bind(bytes, at: 2)
            try insert.run()
        }
        let read = try connection.prepare("SELECT x FROM v ORDER BY id").map { row in try row[0, as: String.self] }
        #expect(read.count == texts.count)
        for (string, bytes) in zip(read, texts) {
            let expected = String(decoding: bytes, as: UTF8.self)
            #expect(Array(string.utf8) == bytes)
            #expect(string == expected)
            if bytes.count <= 15 { #expect(bits(string) == bits(expected)) }
        }
    }
}
