import AlbumStore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A history entry as `albumstore history` prints it.
struct HistoryRecord: Record {
    var entry: HistoryEntry

    static let tableHeader = ["ID", "When", "State", "Command"]
    var tableColumns: [String] {
        [String(entry.id), Self.localTime(entry.date), entry.isUndone ? "undone" : "done", entry.description]
    }

    /// `date` in the local time zone, as `2026-11-25 10:02:32`: read the same way everywhere, and
    /// without Foundation's internationalization (ICU), which would slow every command's start.
    static func localTime(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    /// The CSV and TSV columns: the keys of `HistoryEntry`'s JSON, in its order.
    static let dataHeader = ["id", "date", "is_undone", "description"]
    var dataColumns: [String?] {
        [String(entry.id), ISO8601Timestamp.string(from: entry.date), String(entry.isUndone), entry.description]
    }

    /// Prints `entries` in `format`: JSON (an array laid out as the album array is) and NDJSON from
    /// `HistoryEntry`'s `Codable`, CSV and TSV through the library's writers.
    static func print(_ entries: [HistoryEntry], as output: FormatOptions) throws {
        let stdout = FileDescriptorSink(fileDescriptor: STDOUT_FILENO)
        let rows: any RowWriter
        switch output.format {
        case .table:
            return try TablePrinter.print(entries.lazy.map(HistoryRecord.init), fit: output.tableFit)
        case .json:
            for (number, entry) in entries.enumerated() {
                try stdout.write((number == 0 ? "[" : ",\n") + RecordPrinter.json(entry))
            }
            try stdout.write(entries.isEmpty ? "[]\n" : "]\n")
            return try stdout.flush()
        case .ndjson:
            for entry in entries { try stdout.write(RecordPrinter.json(entry) + "\n") }
            return try stdout.flush()
        case .csv: rows = CSVWriter(to: stdout, header: dataHeader)
        case .tsv: rows = TSVWriter(to: stdout, header: dataHeader)
        }
        for entry in entries { try rows.write(row: HistoryRecord(entry: entry).dataColumns) }
        try rows.finish()
    }
}

/// The writers of rows of text: CSV and TSV.
protocol RowWriter {
    func write(row: [String?]) throws
    func finish() throws
}

extension DelimitedWriter: RowWriter {}
