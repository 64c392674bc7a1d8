import AlbumStore

/// The table format as an `AlbumWriter`: each album a row of `AlbumRecord`'s columns, laid out by
/// `TablePrinter`, which holds the first 1,000 rows to measure the columns and then streams.
final class AlbumTableWriter: AlbumWriter {
    private let printer: TablePrinter

    /// - Parameter lastIndex: The index of the last album to come, when more may come than the
    ///   printer measures: the `#` column is made that wide.
    init(lastIndex: Int?, fit: TableLayout.Fit, sink: any ByteSink) {
        printer = TablePrinter(heading: AlbumRecord.tableHeader, minimumWidths: AlbumRecord.minimumWidths(lastIndex: lastIndex),
                               fit: fit, sink: sink)
    }

    func write(_ album: Album, index: Int?) throws {
        try printer.write(row: AlbumRecord(index: index, album: album).tableColumns)
    }

    func finish() throws {
        try printer.finish()
    }
}
