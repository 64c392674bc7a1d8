import Foundation
@testable import AlbumStore

/// What a reader gave, in a shape tests compare: each record's values by column name.
struct ReadCatalog {
    var columns: [String]
    var records: [CatalogRecord]

    /// Each record's values as `column: text` (numbers and booleans spelled as in `describe`).
    var rows: [[String: String]] {
        records.map { record in
            var row: [String: String] = [:]
            for (column, value) in record.values { row[columns[column]] = ReadCatalog.describe(value) }
            return row
        }
    }

    var lines: [Int] { records.map(\.line) }
    var problems: [String?] { records.map(\.problem) }

    static func describe(_ value: SourceValue) -> String {
        switch value {
        case let .text(text): text
        case let .number(number): "#\(number)"
        case let .bool(bool): "\(bool)"
        case .nested: "{…}"
        }
    }

    /// Reads every record of `reader`.
    static func all(_ reader: some CatalogReader) throws -> ReadCatalog {
        var reader = reader
        var records: [CatalogRecord] = []
        while let record = try reader.next() { records.append(record) }
        return ReadCatalog(columns: reader.columns, records: records)
    }
}

extension CatalogInput {
    /// An input over `text`'s UTF-8 bytes, in chunks of `chunkSize`.
    convenience init(_ text: String, chunkSize: Int = CatalogInput.defaultChunkSize) throws {
        try self.init(data: Data(text.utf8), chunkSize: chunkSize)
    }
}
