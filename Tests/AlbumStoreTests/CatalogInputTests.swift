import Foundation
import TestSupport
import Testing
@testable import AlbumStore

/// How a catalog's bytes become UTF-8: BOMs, UTF-16 in pieces, Windows-1252 guessed or Latin-1
/// forced, and what the input tells the import (encoding, size, bytes read).
struct CatalogInputTests {
    /// Everything the input gives, read through `advance(keeping:)` as a reader does.
    private func decoded(_ input: CatalogInput) throws -> String {
        var bytes = Array(UnsafeBufferPointer(start: input.bytes, count: input.count))
        while try input.advance(keeping: input.count) {
            bytes += Array(UnsafeBufferPointer(start: input.bytes, count: input.count))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let text = "title,artist\nÉté 🎶 “quoted”,Björk\n"

    private static func utf16(_ text: String, bigEndian: Bool, bom: Bool) -> Data {
        var bytes: [UInt8] = bom ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return Data(bytes)
    }

    @Test(arguments: [false, true], [1, 2, 3, 5, 4096])
    func utf16WithABOMIsTranscodedEvenWhenPiecesSplitSurrogatePairs(bigEndian: Bool, chunkSize: Int) throws {
        let input = try CatalogInput(data: Self.utf16(Self.text, bigEndian: bigEndian, bom: true), chunkSize: chunkSize)

        #expect(input.encoding == (bigEndian ? .utf16BE : .utf16LE))
        #expect(!input.encodingWasGuessed)
        #expect(try decoded(input) == Self.text)
        #expect(input.bytesRead == Self.text.utf16.count * 2 + 2)
    }

    @Test func utf16WithoutABOMIsGuessedFromItsZeroBytes() throws {
        let little = try CatalogInput(data: Self.utf16("title\nLow\n", bigEndian: false, bom: false))
        let big = try CatalogInput(data: Self.utf16("title\nLow\n", bigEndian: true, bom: false))
        #expect((little.encoding, little.encodingWasGuessed) == (.utf16LE, true))
        #expect((big.encoding, big.encodingWasGuessed) == (.utf16BE, true))
        #expect(try decoded(big) == "title\nLow\n")
    }

    @Test func aForcedUTF16ChoosesItsByteOrderFromTheBOM() throws {
        let input = try CatalogInput(data: Self.utf16("a🎶", bigEndian: true, bom: true), encoding: .utf16)
        #expect(input.encoding == .utf16BE)
        #expect(try decoded(input) == "a🎶")
    }

    @Test func aLoneSurrogateAndACutOffCodeUnitBecomeReplacementCharacters() throws {
        let input = try CatalogInput(data: Data([0xFF, 0xFE, 0x41, 0x00, 0x3D, 0xD8, 0x42, 0x00, 0x43]), chunkSize: 3)
        #expect(try decoded(input) == "A\u{FFFD}B\u{FFFD}")
    }

    @Test func bytesThatAreNotUTF8AreGuessedToBeWindows1252() throws {
        // “Café” as Windows-1252 writes it: 0x93 and 0x94 are curly quotes, 0xE9 is é.
        let bytes: [UInt8] = Array("title\n".utf8) + [0x93] + Array("Caf".utf8) + [0xE9, 0x94, 0x0A, 0x80, 0x81, 0x9D]
        let input = try CatalogInput(data: Data(bytes), chunkSize: 4)

        #expect(input.encoding == .windows1252)
        #expect(input.encodingWasGuessed)
        #expect(try decoded(input) == "title\n“Café”\n€\u{81}\u{9D}")
    }

    @Test(arguments: [1, 2, 3, 7, 4096])
    func theLinesOfAUTF8FileThatAreNotUTF8AreReadAsWindows1252Alone(chunkSize: Int) throws {
        // Line 3 (after a CRLF) and line 5 (after a lone CR) hold Latin-1 bytes; the others UTF-8.
        let bytes = Array("title\nBjörk\r\nCaf".utf8) + [0xE9] + Array("\nÉté\r".utf8) + [0x93, 0x41, 0x94]
            + Array("\n“ok”\n".utf8)
        let input = try CatalogInput(data: Data(bytes), chunkSize: chunkSize)

        #expect((input.encoding, input.encodingWasGuessed) == (.utf8, false))
        #expect(input.windows1252Lines.ranges == [3...3, 5...5])
        #expect(try decoded(input) == "title\nBjörk\r\nCafé\nÉté\r“A”\n“ok”\n")
    }

    @Test func aStreamsMixedLinesAreFoundInItsFirstMegabyte() throws {
        let bytes = Array("title\nBjörk\n".utf8) + [0xE9, 0x0A] + Array("Björk\n".utf8)
        let input = try CatalogInput(data: Data(bytes), chunkSize: 4, sniffLimit: 16)

        #expect(input.windows1252Lines.ranges == [3...3])
        #expect(try decoded(input) == "title\nBjörk\né\nBjörk\n")
    }

    @Test func aForcedLatin1ReadsEachByteAsItsCodePoint() throws {
        let input = try CatalogInput(data: Data([0x93, 0x43, 0xE9]), encoding: .latin1)
        #expect((input.encoding, input.encodingWasGuessed) == (.latin1, false))
        #expect(try decoded(input) == "\u{93}Cé")
    }

    @Test func aForcedWindows1252IsUsedEvenForValidUTF8() throws {
        let input = try CatalogInput(data: Data("é".utf8), encoding: .windows1252)
        #expect(try decoded(input) == "Ã©")
    }

    @Test func validUTF8IsReadAsItIsAndNotGuessed() throws {
        let input = try CatalogInput(Self.text, chunkSize: 3)
        #expect((input.encoding, input.encodingWasGuessed) == (.utf8, false))
        #expect(try decoded(input) == Self.text)
        #expect(input.totalBytes == Self.text.utf8.count)
    }

    @Test func aRegularFileIsCheckedWholeSoLateWindows1252BytesAreFound() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("late.csv").path
        let bytes = Array(repeating: UInt8(ascii: "a"), count: 3 << 20) + [0x0A, 0xE9, 0x0A]
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let input = try CatalogInput(path: path)

        #expect((input.encoding, input.encodingWasGuessed) == (.windows1252, true))
        #expect(input.totalBytes == bytes.count)
        #expect(input.bytesRead == CatalogInput.defaultChunkSize)
        #expect(input.head.count == CatalogInput.defaultChunkSize)
    }

    @Test func aFileThatCannotBeOpenedIsACatalogError() throws {
        #expect(throws: CatalogError.self) { try CatalogInput(path: "/nonexistent/albums.csv") }
    }

    @Test func encodingsAreNamedAsPeopleSpellThem() {
        #expect(CatalogEncoding(name: "UTF8") == .utf8)
        #expect(CatalogEncoding(name: "cp1252") == .windows1252)
        #expect(CatalogEncoding(name: "ISO-8859-1") == .latin1)
        #expect(CatalogEncoding(name: "utf-16le") == .utf16LE)
        #expect(CatalogEncoding(name: "ebcdic") == nil)
        #expect(CatalogEncoding.allCases.allSatisfy { CatalogEncoding(name: $0.rawValue) == $0 })
    }

    @Test func aPipeIsCheckedInItsFirstMebibyteAndLaterInvalidBytesAreARecordProblem() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        defer { close(readEnd) }
        var bytes = Array("title,artist\n".utf8)
        while bytes.count < CatalogInput.sniffLimit + 4096 { bytes += Array("Low,David Bowie\n".utf8) }
        bytes += Array("Caf".utf8) + [0xE9] + Array(",X\nHeroes,Bowie\n".utf8)
        let writer = Thread { [bytes] in
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count, let base = buffer.baseAddress {
                    let written = write(writeEnd, base + offset, buffer.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(writeEnd)
        }
        writer.start()

        let input = try CatalogInput(fileDescriptor: readEnd)
        #expect((input.encoding, input.encodingWasGuessed, input.totalBytes) == (.utf8, false, nil))
        let catalog = try ReadCatalog.all(CSVReader(over: input))

        #expect(catalog.problems.compactMap { $0 } == ["field 1 is not valid UTF-8"])
        #expect(catalog.records.last?.values.first?.value == .text("Heroes"))
        #expect(input.bytesRead == bytes.count)
    }

    @Test func standardInputRedirectedFromAFileCountsFromWhereItStarts() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("albums.csv").path
        try Data(Array("skipped\n".utf8) + Array("title\nCaf".utf8) + [0xE9, 0x0A]).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        #expect(lseek(descriptor, 8, SEEK_SET) == 8)

        let input = try CatalogInput(fileDescriptor: descriptor)

        #expect(input.totalBytes == 11)
        #expect((input.encoding, input.encodingWasGuessed) == (.windows1252, true))
        #expect(try decoded(input) == "title\nCafé\n")
    }

    @Test func readingAPathOtherThanADashOpensThatFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("a.csv").path
        try Data("title\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try CatalogInput.reading(path).head == Array("title\n".utf8))
    }
}
