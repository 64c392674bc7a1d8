import FoundationEssentials

/// Anything a command prints as the rows of a table.
protocol Record {
    static var tableHeader: [String] { get }
    var tableColumns: [String] { get }
}

extension TablePrinter {
    /// Prints `records` as a table under their header (see `TableLayout` for the rules).
    ///
    /// - Throws: `ByteSinkError` when stdout cannot take the output.
    static func print<R: Record>(_ records: some Sequence<R>, minimumWidths: [Int] = [], fit: TableLayout.Fit) throws {
        try print(heading: R.tableHeader, minimumWidths: minimumWidths, rows: records.lazy.map(\.tableColumns), fit: fit)
    }
}

/// JSON for the records the library has no writer for.
enum RecordPrinter {
    /// `value` as one line of JSON through its `Codable` (snake_case keys, ISO 8601 dates), keys
    /// sorted: Foundation's encoder keeps no key order on Linux, and output must not change from
    /// run to run.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
