import AlbumStore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Prints albums with their indexes in the chosen format, each album going to stdout as it is
/// written: the table through `AlbumTableWriter`, the data formats through the library's writers.
enum AlbumPrinter {
    /// Prints a few albums the command has in hand (`add`, `edit`, `show`).
    ///
    /// - Throws: `ByteSinkError` when stdout cannot take the output (`.brokenPipe` when its reader
    ///   went away, which the command ends quietly).
    static func print(_ albums: [(index: Int, album: Album)], as output: FormatOptions) throws {
        try print(albums, format: output.format, wide: output.wide)
    }

    /// `print(_:as:)` with the format and `--wide` as plain values.
    static func print(_ albums: [(index: Int, album: Album)], format: OutputFormat, wide: Bool) throws {
        let writer = writer(format: format, wide: wide, lastIndex: albums.last?.index)
        // A loop, not `write(contentsOf:)`: its generic `Sequence` costs the runtime a scan of
        // the binary's conformances at the first call, a millisecond of `show`.
        for (index, album) in albums { try writer.write(album, index: index) }
        try writer.finish()
    }

    /// Prints up to `limit` albums of the list from index `offset` on, each as the library reads
    /// it: memory stays bounded and the first line comes at once, however long the list.
    ///
    /// - Throws: as `print(_:as:)`, and the library's errors.
    static func printList(of albums: AlbumRepository, offset: Int, limit: Int, format: OutputFormat, wide: Bool) throws {
        var lastIndex: Int?
        // The table's `#` column is as wide as the last index, which only the count tells when the
        // page is longer than the rows the table measures (a shorter one sets its widths itself).
        if format == .table && limit > TableLayout.sampleSize {
            let end = min(try albums.count(), offset.addingReportingOverflow(limit).overflow ? .max : offset + limit)
            lastIndex = end > offset ? end - 1 : nil
        }
        try albums.write(to: writer(format: format, wide: wide, lastIndex: lastIndex), offset: offset, limit: limit)
    }

    /// A writer of `format` to stdout; a table cut to the terminal unless `wide`.
    static func writer(format: OutputFormat, wide: Bool, lastIndex: Int?) -> any AlbumWriter {
        let stdout = FileDescriptorSink(fileDescriptor: STDOUT_FILENO)
        return switch format {
        case .table: AlbumTableWriter(lastIndex: lastIndex, fit: FormatOptions.tableFit(wide: wide), sink: stdout)
        case .json: JSONWriter(to: stdout)
        case .ndjson: NDJSONWriter(to: stdout)
        case .csv: CSVWriter(to: stdout)
        case .tsv: TSVWriter(to: stdout)
        }
    }
}
