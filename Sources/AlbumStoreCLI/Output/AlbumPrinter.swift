import AlbumStore
import Foundation

/// Prints albums with their indexes in the chosen format: the table here, the data formats through
/// the library's writers, each album going to stdout as it is written.
enum AlbumPrinter {
    /// - Throws: `ByteSinkError` when stdout cannot take the output (`.brokenPipe` when its reader
    ///   went away, which the command ends quietly).
    static func print(_ albums: [(index: Int, album: Album)], as output: FormatOptions) throws {
        let stdout = FileDescriptorSink(fileDescriptor: STDOUT_FILENO)
        let writer: any AlbumWriter
        switch output.format {
        case .table:
            return try TablePrinter.print(albums.lazy.map(AlbumRecord.init),
                                          minimumWidths: AlbumRecord.minimumWidths(lastIndex: albums.last?.index),
                                          fit: output.tableFit)
        case .json: writer = JSONWriter(to: stdout)
        case .ndjson: writer = NDJSONWriter(to: stdout)
        case .csv: writer = CSVWriter(to: stdout)
        case .tsv: writer = TSVWriter(to: stdout)
        }
        try writer.write(contentsOf: albums)
        try writer.finish()
    }
}
