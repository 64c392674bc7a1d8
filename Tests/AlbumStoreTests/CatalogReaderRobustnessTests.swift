import Foundation
import Testing
import TestSupport
@testable import AlbumStore

/// Bad input never crashes a reader: random bytes, heavy in each format's special characters,
/// read in tiny chunks, end in records, problems or a `CatalogError`, never a trap.
struct CatalogReaderRobustnessTests {
    private static let alphabet: [UInt8] = Array("\",\t\r\n\\{}[]:\"tfn0123456789.-eE u<>/?&;ab".utf8) + [0, 0xE9, 0xFF, 0xC3, 0xA9, 0xF0, 0x9F]

    private func samples(seed: UInt64, prefix: String) -> [Data] {
        var generator = SeededRandom(seed: SeededRandom.environmentSeed.map { $0 &+ seed } ?? seed)
        return (0..<300).map { _ in
            let count = Int.random(in: 0...120, using: &generator)
            let bytes = (0..<count).map { _ in Self.alphabet.randomElement(using: &generator) ?? 0 }
            return Data(Array(prefix.utf8) + bytes)
        }
    }

    private func readAll(_ make: () throws -> any CatalogReader) {
        do {
            var reader = try make()
            var count = 0
            while let record = try reader.next() {
                count += 1
                #expect(record.values.allSatisfy { $0.column < reader.columns.count })
                #expect(count < 10_000)
            }
        } catch is CatalogError {
            // A file that cannot be read on: what the import reports.
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test(arguments: [CatalogFormat.csv, .tsv, .json, .ndjson, .discogs])
    func randomBytesNeverCrashAReader(format: CatalogFormat) {
        let prefixes: [CatalogFormat: String] = [
            .csv: "a,b,c\n", .tsv: "a\tb\n", .json: "[", .ndjson: "",
            .discogs: "Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,CollectionFolder,Date Added,"
                + "Collection Media Condition,Collection Sleeve Condition,Collection Notes\n",
        ]
        for (number, data) in samples(seed: UInt64(format.rawValue.count), prefix: prefixes[format] ?? "").enumerated() {
            readAll { try format.reader(over: CatalogInput(data: data, chunkSize: 1 + number % 5, sniffLimit: 8)) }
        }
    }

    @Test func randomBytesNeverCrashTheInputInAnyEncoding() throws {
        for encoding in CatalogEncoding.allCases {
            for (number, data) in samples(seed: 99, prefix: "").enumerated() {
                let input = try CatalogInput(data: data, encoding: encoding, chunkSize: 1 + number % 7)
                while try input.advance(keeping: input.count) {}
            }
        }
    }

    @Test func randomBytesInALibraryXMLNeverCrashIt() {
        let start = "<?xml version=\"1.0\"?>\n<plist><dict><key>Tracks</key><dict><key>1</key><dict><key>Album</key><string>"
        for data in samples(seed: 7, prefix: start).prefix(60) {
            readAll { try LibraryXMLReader(over: try CatalogInput(data: data, chunkSize: 3)) }
        }
    }
}
