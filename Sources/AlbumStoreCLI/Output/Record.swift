import Foundation

/// Anything a command prints as rows: the table shows `tableColumns`, the data formats every field.
protocol Record: Encodable {
    static var tableHeader: [String] { get }
    var tableColumns: [String] { get }
    static var dataHeader: [String] { get }
    var dataColumns: [String] { get }
}

/// Renders records in each output format.
enum RecordPrinter {
    static func render<R: Record>(_ records: [R], as format: OutputFormat) -> String {
        switch format {
        case .table: table(header: R.tableHeader, rows: records.map(\.tableColumns))
        case .json: json(records, pretty: true) + "\n"
        case .ndjson: records.map { json($0, pretty: false) + "\n" }.joined()
        case .csv: ([R.dataHeader] + records.map(\.dataColumns)).map { $0.map(csvField).joined(separator: ",") + "\n" }.joined()
        case .tsv: ([R.dataHeader] + records.map(\.dataColumns)).map { $0.map(tsvField).joined(separator: "\t") + "\n" }.joined()
        }
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

    static func json<T: Encodable>(_ value: T, pretty: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }

    /// RFC 4180: quote fields holding a comma, a quote or a line break; double the quotes.
    static func csvField(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Tabs, line breaks and backslashes escaped, as in PostgreSQL's text format.
    static func tsvField(_ field: String) -> String {
        field.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
            .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
