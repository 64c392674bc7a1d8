import AlbumStore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The facts `albumstore info` prints, in every `--format` the other commands take.
enum InfoRecord {
    /// The CSV and TSV columns: the keys of `LibraryInfo`'s JSON, in its documented order.
    static let dataHeader = ["path", "schema_version", "sqlite_version", "album_count", "file_size", "wal_size"]

    static func dataColumns(_ info: LibraryInfo) -> [String?] {
        [info.path, String(info.schemaVersion), info.sqliteVersion, String(info.albumCount), String(info.fileSize),
         String(info.walSize)]
    }

    /// Prints `info`: as `show` prints an album (a labelled line per fact) for the table; one
    /// JSON object (also the one NDJSON line, there being one record); CSV or TSV, a header and a line.
    static func print(_ info: LibraryInfo, as output: FormatOptions) throws {
        let stdout = FileDescriptorSink(fileDescriptor: STDOUT_FILENO)
        let rows: any RowWriter
        switch output.format {
        case .table:
            let facts = [
                ["Path", info.path],
                ["Schema version", String(info.schemaVersion)],
                ["SQLite version", info.sqliteVersion],
                ["Albums", String(info.albumCount)],
                ["File size", "\(info.fileSize) bytes (+ \(info.walSize) bytes write-ahead log)"],
            ]
            return try TablePrinter.print(heading: ["Fact", "Value"], printsHeading: false, rows: facts, fit: output.tableFit)
        case .json, .ndjson:
            try stdout.write(RecordPrinter.json(info) + "\n")
            return try stdout.flush()
        case .csv: rows = CSVWriter(to: stdout, header: dataHeader)
        case .tsv: rows = TSVWriter(to: stdout, header: dataHeader)
        }
        try rows.write(row: dataColumns(info))
        try rows.finish()
    }
}
