import AlbumStore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Prints a table for people, row by row, as `TableLayout` lays it out: cells escaped, columns
/// lined up by terminal display width, two spaces between columns, the last column not padded
/// and no line ending in spaces.
///
/// It streams: the first `TableLayout.sampleSize` rows are held to measure the columns, then
/// printed; every later row goes to the sink as it comes. So memory stays at 1,000 rows however
/// long the table, and `albumstore list | head` sees its lines at once.
final class TablePrinter {
    private let heading: [TableCell]
    private let printsHeading: Bool
    private let minimumWidths: [Int]
    private let fit: TableLayout.Fit
    private let sink: any ByteSink
    /// The rows held until the layout is known.
    private var sample: [[TableCell]] = []
    private var layout: TableLayout?
    private var line: [UInt8] = []

    /// A table under `heading` written to `sink` (stdout by default).
    ///
    /// - Parameters:
    ///   - printsHeading: `false` for a table whose first column says what each row is (`show`'s
    ///     field names): the heading then only sets the narrowest the columns get.
    ///   - minimumWidths: Widths known to be reached after the sample (`TableLayout`), e.g. the
    ///     digits of a list's last index.
    init(heading: [String], printsHeading: Bool = true, minimumWidths: [Int] = [], fit: TableLayout.Fit,
         sink: any ByteSink = FileDescriptorSink(fileDescriptor: STDOUT_FILENO)) {
        self.heading = heading.map(TableCell.init)
        self.printsHeading = printsHeading
        self.minimumWidths = minimumWidths
        self.fit = fit
        self.sink = sink
    }

    /// Prints `row` (as many cells as the heading has), or holds it while the layout is not known.
    ///
    /// - Throws: `ByteSinkError` from the sink.
    func write(row: [String]) throws {
        precondition(row.count == heading.count, "a row has as many cells as the heading (\(heading.count))")
        let cells = row.map(TableCell.init)
        if let layout { return try write(cells, in: layout) }
        sample.append(cells)
        if sample.count >= TableLayout.sampleSize { try layOut() }
    }

    /// Prints what is held and flushes the sink. Write nothing after it.
    func finish() throws {
        if layout == nil { try layOut() }
        try sink.flush()
    }

    /// Prints every row of `rows` under `heading`, then finishes.
    static func print(heading: [String], printsHeading: Bool = true, minimumWidths: [Int] = [],
                      rows: some Sequence<[String]>, fit: TableLayout.Fit) throws {
        let printer = TablePrinter(heading: heading, printsHeading: printsHeading, minimumWidths: minimumWidths, fit: fit)
        for row in rows { try printer.write(row: row) }
        try printer.finish()
    }

    /// Sets the layout from the heading and the rows held, and prints them.
    private func layOut() throws {
        let layout = TableLayout(headingWidths: heading.map(\.width), sampleWidths: sample.map { $0.map(\.width) },
                                 minimumWidths: minimumWidths, fit: fit)
        self.layout = layout
        if printsHeading { try write(heading, in: layout) }
        for row in sample { try write(row, in: layout) }
        sample = []
    }

    /// Writes one line: each cell at its column's start, or two spaces after a longer cell
    /// before it (the row lines up again at the first column with room), the last unpadded.
    private func write(_ cells: [TableCell], in layout: TableLayout) throws {
        line.removeAll(keepingCapacity: true)
        var position = 0   // the display columns written so far
        var start = 0      // where the current column starts when every cell fits
        for (column, cell) in cells.enumerated() {
            let width = layout.widths[column]
            if column > 0 {
                let pad = max(start - position, TableLayout.gap)
                line.append(contentsOf: repeatElement(UInt8(ascii: " "), count: pad))
                position += pad
            }
            let shown = layout.cutsLongCells ? cell.shortened(toFit: width) : cell
            line.append(contentsOf: shown.text.utf8)
            position += shown.width
            start += width + TableLayout.gap
        }
        while line.last == UInt8(ascii: " ") { line.removeLast() }
        line.append(UInt8(ascii: "\n"))
        try sink.write(line)
    }
}
