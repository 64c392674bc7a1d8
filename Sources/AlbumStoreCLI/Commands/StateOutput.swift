import AlbumStore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How the `state` commands and `enrich --dry-run` print: a table (or CSV, TSV) of rows, or one JSON document (NDJSON:
/// an array's elements a line each, anything else one line). One place, so every `state`
/// command takes the same `--format`s.
enum StateOutput {
    static func print(header: [String], rows: [[String]], json: JSONValue, as output: FormatOptions) throws {
        let stdout = FileDescriptorSink(fileDescriptor: STDOUT_FILENO)
        let writer: any RowWriter
        switch output.format {
        case .table:
            return try TablePrinter.print(heading: header, rows: rows, fit: output.tableFit)
        case .json:
            try stdout.write(json.description + "\n")
            return try stdout.flush()
        case .ndjson:
            let lines = if case let .array(elements) = json { elements } else { [json] }
            for line in lines { try stdout.write(line.description + "\n") }
            return try stdout.flush()
        case .csv: writer = CSVWriter(to: stdout, header: header.map { $0.lowercased() })
        case .tsv: writer = TSVWriter(to: stdout, header: header.map { $0.lowercased() })
        }
        for row in rows { try writer.write(row: row) }
        try writer.finish()
    }

    /// The rows of a state: one per item that has a value, `Item` and `Value` (JSON text).
    static func rows(of state: SessionState) -> [[String]] {
        state.items.map { ["\($0)", state[$0]?.description ?? ""] }
    }

    static func line(_ current: ResolvedCurrentAlbum) -> String {
        "#\(current.index) \(current.album.quoted) (id \(current.album.id))" + (current.isSavedAlbum ? "" : ", " + fallback(current))
    }

    /// Why the current album was found by its saved index: `by the saved index 3: album 7 no
    /// longer exists` (or no id was saved, as in a version 1 snapshot file).
    static func fallback(_ current: ResolvedCurrentAlbum) -> String {
        "by the saved index \(current.saved.index): "
            + (current.saved.albumID.map { "album \($0) no longer exists" } ?? "no album id was saved")
    }

    /// Items as a message names them: `tab order, key volume`.
    static func list(_ items: [SessionItem]) -> String {
        items.map(\.description).joined(separator: ", ")
    }
}
