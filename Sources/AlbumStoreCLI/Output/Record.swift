import Foundation

/// Anything a command prints as the rows of a table.
protocol Record {
    static var tableHeader: [String] { get }
    var tableColumns: [String] { get }
}

/// The table format, and JSON for the records the library has no writer for.
enum RecordPrinter {
    static func table<R: Record>(_ records: [R]) -> String {
        table(header: R.tableHeader, rows: records.map(\.tableColumns))
    }

    /// Columns padded to their widest cell; the last column is not padded.
    static func table(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }.joined()
    }

    /// `value` as one line of JSON through its `Codable` (snake_case keys, ISO 8601 dates), keys
    /// sorted: Foundation's encoder keeps no key order on Linux, and output must not change from
    /// run to run.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
