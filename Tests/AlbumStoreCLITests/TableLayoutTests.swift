import AlbumStore
@testable import AlbumStoreCLI
import Testing

/// Column widths, cutting and streaming of the table printer, without a process.
struct TableLayoutTests {
    // MARK: Widths

    @Test func nothingIsCutAColumnIsAsWideAsItsWidestCellUpToTheCap() {
        let layout = TableLayout(headingWidths: [1, 6, 5], sampleWidths: [[1, 3, 200], [2, 11, 7]], fit: .whole)

        #expect(layout.widths == [2, 11, TableLayout.paddingCap])
        #expect(!layout.cutsLongCells)
    }

    @Test func aHeadingWiderThanTheCapKeepsItsWidth() {
        let layout = TableLayout(headingWidths: [70], sampleWidths: [[100]], fit: .whole)

        #expect(layout.widths == [70])
    }

    @Test func aTableThatFitsItsTerminalKeepsItsWidths() {
        let layout = TableLayout(headingWidths: [1, 6, 5], sampleWidths: [[1, 30, 40]], fit: .terminal(columns: 75))

        #expect(layout.widths == [1, 30, 40])   // 71 + two gaps of 2 = 75
        #expect(layout.cutsLongCells)
    }

    @Test func theWidestColumnsAreNarrowedFirstToFitTheTerminal() {
        let layout = TableLayout(headingWidths: [1, 6, 5, 4], sampleWidths: [[3, 20, 50, 4]], fit: .terminal(columns: 50))

        // 50 - 3 gaps of 2 = 44 columns for cells: 3 and 4 stay, 20 and 50 share 37.
        #expect(layout.widths == [3, 19, 18, 4])
        let cells: Int = layout.widths.reduce(0, +)
        #expect(cells + 2 * 3 == 50)
    }

    @Test func noColumnIsNarrowedBelowItsHeading() {
        let layout = TableLayout(headingWidths: [1, 12, 5], sampleWidths: [[1, 40, 40]], fit: .terminal(columns: 25))

        #expect(layout.widths == [1, 12, 8])
    }

    @Test func whenEvenTheHeadingsDoNotFitTheColumnsAreAsWideAsTheirHeadings() {
        let layout = TableLayout(headingWidths: [6, 6, 6], sampleWidths: [[30, 30, 30]], fit: .terminal(columns: 10))

        #expect(layout.widths == [6, 6, 6])
    }

    // MARK: Cutting

    @Test(arguments: [
        ("Low", 5, "Low"),
        ("Heroes", 5, "Hero…"),
        ("坂本龍一", 5, "坂本…"),
        ("坂本龍一", 4, "坂…"),                                 // 坂本 would leave no room for …
        ("Bjo\u{308}rk Guðmundsdóttir", 5, "Bjo\u{308}r…"),      // the diaeresis stays with its o
        ("\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}\u{1F44D}\u{1F3FD}x", 4,
         "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}…"),
        ("Heroes", 1, "…"),
    ])
    func aCellIsCutBetweenGraphemeClustersAndEndsInAnEllipsis(text: String, columns: Int, shown: String) {
        let cell = TableCell(text).shortened(toFit: columns)

        #expect(cell.text == shown)
        #expect(cell.width == DisplayWidth.of(shown))
        #expect(cell.width <= columns)
    }

    @Test func aCellIsEscapedBeforeItIsMeasured() {
        let cell = TableCell("a\nb\u{1B}[31m")

        #expect(cell.text == #"a\nb\e[31m"#)
        #expect(cell.width == 10)
    }

    // MARK: Printing

    @Test func theLastColumnIsNotPaddedAndLinesDoNotEndInSpaces() throws {
        let sink = MemorySink()
        let printer = TablePrinter(heading: ["A", "Bee", "C"], fit: .whole, sink: sink)

        try printer.write(row: ["1", "", ""])
        try printer.write(row: ["22", "x", "last"])
        try printer.finish()

        #expect(sink.text == "A   Bee  C\n1\n22  x    last\n")
    }

    @Test func aCellWiderThanItsColumnPushesItsRowOnlyUntilThereIsRoomAgain() throws {
        let sink = MemorySink()
        let printer = TablePrinter(heading: ["A", "B", "C", "D"], fit: .whole, sink: sink)
        let long = String(repeating: "x", count: 65)

        try printer.write(row: ["a", long, "c", "d"])
        try printer.write(row: ["a", "b", String(repeating: "c", count: 10), "d"])
        try printer.finish()

        let lines = sink.text.split(separator: "\n").map(String.init)
        // B is 60 wide (the cap), C 10: the 65 x's push c 5 columns right, and d is back in place.
        #expect(lines[1] == "a  " + long + "  c" + String(repeating: " ", count: 6) + "d")
        #expect(lines[2] == "a  b" + String(repeating: " ", count: 61) + String(repeating: "c", count: 10) + "  d")
        #expect(lines[1].count == lines[2].count)
    }

    @Test func nothingIsPrintedBeforeTheSampleIsCompleteThenEveryRowAtOnce() throws {
        let sink = MemorySink()
        let printer = TablePrinter(heading: ["#", "Title"], fit: .whole, sink: sink)

        for index in 0..<(TableLayout.sampleSize - 1) { try printer.write(row: [String(index), "Title"]) }
        #expect(sink.bytes.isEmpty)

        try printer.write(row: ["999", "Title"])
        #expect(sink.text.split(separator: "\n").count == TableLayout.sampleSize + 1)

        try printer.write(row: ["1000", "Title"])
        #expect(sink.text.hasSuffix("1000  Title\n"))
    }

    @Test func rowsAfterTheSampleKeepItsWidthsAndAreCutOnATerminalOrPrintedWholeElsewhere() throws {
        for fit in [TableLayout.Fit.whole, .terminal(columns: 20)] {
            let sink = MemorySink()
            let printer = TablePrinter(heading: ["#", "Title", "ID"], fit: fit, sink: sink)
            for index in 0..<TableLayout.sampleSize { try printer.write(row: [String(index % 10), "Low", "1"]) }
            try printer.write(row: ["0", "A much longer title", "2"])
            try printer.finish()

            let last = try #require(sink.text.split(separator: "\n").last.map(String.init))
            #expect(last == (fit == .whole ? "0  A much longer title  2" : "0  A mu…  2"))
        }
    }
}
