/// The widths of a table's columns, in terminal columns, and what becomes of a cell wider than
/// its column.
///
/// The rules (the help of `list`, `show` and `history` and docs/cli.md say the same):
///
/// - Widths come from the heading and the first `sampleSize` rows, so a table streams: the first
///   line is printed after 1,000 rows, not after the last of a million.
/// - On a terminal (`Fit.terminal`) a column is as wide as its widest sampled cell, and when the
///   table is wider than the terminal the widest columns are narrowed first, never below their
///   heading. A cell wider than its column is cut with `…` (`TableCell.shortened(toFit:)`), also
///   in rows after the sample.
/// - Otherwise (`Fit.whole`: a pipe, a file, or `--wide`) nothing is cut. A column is as wide as
///   its widest sampled cell but at most `paddingCap` columns (or its heading), and a wider cell
///   is printed whole: the cells after it in its row move right, and line up again as soon as a
///   shorter cell leaves room. So one 100,000-character title makes one long line, not 5,000
///   lines padded to 100,000 characters each.
struct TableLayout: Equatable {
    /// How a table meets the width it is shown in.
    enum Fit: Equatable {
        /// Cut long cells to fit a terminal this many columns wide.
        case terminal(columns: Int)
        /// Cut nothing.
        case whole
    }

    /// The rules above as `--help` of `list`, `show` and `history` gives them.
    static let help = """
        Tables (the default format) are for people. Columns line up by what a terminal shows (a \
        CJK character or an emoji takes two columns, an accent none), and control characters, \
        escape sequences and bidi overrides in the data are shown escaped (\\n, \\t, \\e, \\u{9b}, \\u{202e}). \
        Column widths come from the first \(sampleSize) rows, so a long table starts at once.

        When stdout is a terminal, long cells are cut with … to fit its width (as the terminal \
        says, else $COLUMNS, else 80): the widest columns give way first, none below its heading. \
        --wide shows every cell whole. Otherwise (a pipe, a file, or --wide) nothing is cut: a \
        column is padded to at most \(paddingCap) columns, and a longer cell (or a wider one after \
        the first \(sampleSize) rows) is printed whole, pushing the rest of its row right. \
        --format csv, tsv, json and ndjson keep every value exact.
        """

    /// The rows whose widths set the columns' widths.
    static let sampleSize = 1_000
    /// The widest a column is padded to when nothing is cut.
    static let paddingCap = 60
    /// The spaces between two columns.
    static let gap = 2

    /// Each column's width in terminal columns.
    var widths: [Int]
    /// Whether a cell wider than its column is cut to fit (on a terminal) or printed whole.
    var cutsLongCells: Bool

    /// The layout for a table with these heading widths whose first rows' cells have these widths.
    ///
    /// - Parameter minimumWidths: Widths the caller knows cells after the sample reach, such as the
    ///   digits of the last index of a long list: they keep such a column from growing past the
    ///   sample and pushing every later row right. Empty for none.
    init(headingWidths: [Int], sampleWidths: [[Int]], minimumWidths: [Int] = [], fit: Fit) {
        var natural = headingWidths
        for (column, width) in minimumWidths.enumerated() where column < natural.count {
            natural[column] = max(natural[column], width)
        }
        for row in sampleWidths {
            for (column, width) in row.enumerated() where column < natural.count {
                natural[column] = max(natural[column], width)
            }
        }
        switch fit {
        case .whole:
            widths = zip(headingWidths, natural).map { heading, width in max(heading, min(width, Self.paddingCap)) }
            cutsLongCells = false
        case let .terminal(columns):
            let room = columns - Self.gap * max(0, natural.count - 1)
            widths = Self.narrowed(natural, floors: headingWidths, toFit: room)
            cutsLongCells = true
        }
    }

    /// `widths` narrowed, widest first, until their sum is at most `room`, none below its floor.
    ///
    /// Finds the largest level L such that cutting every column to L (but not below its floor)
    /// fits, then hands the columns left over one by one to the columns that were cut, from the
    /// left. When even the floors do not fit, the floors it is: the terminal wraps the lines.
    static func narrowed(_ widths: [Int], floors: [Int], toFit room: Int) -> [Int] {
        func cut(to level: Int) -> [Int] {
            zip(widths, floors).map { width, floor in max(floor, min(width, level)) }
        }
        guard widths.reduce(0, +) > room else { return widths }
        guard floors.reduce(0, +) < room else { return cut(to: 0) }
        // The largest level that fits: cut(to: low) fits, cut(to: high) does not.
        var low = 0
        var high = widths.max() ?? 0
        while high - low > 1 {
            let middle = (low + high) / 2
            if cut(to: middle).reduce(0, +) <= room { low = middle } else { high = middle }
        }
        var result = cut(to: low)
        var left = room - result.reduce(0, +)
        for column in result.indices where left > 0 && result[column] < widths[column] {
            result[column] += 1
            left -= 1
        }
        return result
    }
}
