/// What CSV and TSV share: a header written before the first line, one line per record handed to
/// the sink as soon as it is complete, numbers and dates written without building strings. Only
/// how a text field is escaped differs.
struct DelimitedTable: ~Copyable {
    enum Style {
        case csv, tsv

        var separator: UInt8 { self == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t") }
    }

    let sink: any ByteSink
    let style: Style
    let header: [String]
    /// The album field of each column; `nil` for a table of rows of text.
    let fields: [AlbumField]?
    private var line = ByteBuffer()
    private var wroteHeader = false
    private var isFinished = false

    init(sink: any ByteSink, style: Style, header: [String], fields: [AlbumField]?) {
        self.sink = sink
        self.style = style
        self.header = header
        self.fields = fields
    }

    /// Writes the line of `album` (an `Album`, or a row of the albums query).
    mutating func write(_ album: borrowing some AlbumFieldSource & ~Copyable, index: Int?) throws {
        guard let fields else { preconditionFailure("a writer made with init(to:header:) writes rows, not albums") }
        startLine()
        let style = style
        for (column, field) in fields.enumerated() {
            if column > 0 { line.append(style.separator) }
            guard field != .index else {
                if let index { line.appendDecimal(Int64(index)) }
                continue
            }
            try album.withValue(of: field) { value in
                switch value {
                case let .text(text): Self.append(text, style: style, to: &line)
                case let .integer(number): line.appendDecimal(number)
                case let .timestamp(milliseconds): ISO8601Timestamp.append(milliseconds: milliseconds, to: &line)
                case .null: break
                }
            }
        }
        try endLine()
    }

    mutating func write(row: [String?]) throws {
        precondition(row.count == header.count, "a row has as many fields as the header (\(header.count))")
        startLine()
        append(row)
        try endLine()
    }

    mutating func finish() throws {
        guard !isFinished else { return }
        if !wroteHeader {
            startLine()
            try line.withBytes { try sink.write($0) }
        }
        isFinished = true
        try sink.flush()
    }

    /// Empties the line buffer, starting it with the header line when none was written yet.
    private mutating func startLine() {
        precondition(!isFinished, "write after finish()")
        line.removeAll()
        if !wroteHeader {
            wroteHeader = true
            append(header)
            line.append(UInt8(ascii: "\n"))
        }
    }

    private mutating func endLine() throws {
        line.append(UInt8(ascii: "\n"))
        try line.withBytes { try sink.write($0) }
    }

    private mutating func append(_ fields: [String?]) {
        for (column, field) in fields.enumerated() {
            if column > 0 { line.append(style.separator) }
            guard var field else { continue }
            let style = style
            field.withUTF8 { Self.append($0, style: style, to: &line) }
        }
    }

    private static func append(_ text: UnsafeBufferPointer<UInt8>, style: Style, to line: inout ByteBuffer) {
        switch style {
        case .csv: appendCSV(text, to: &line)
        case .tsv: appendTSV(text, to: &line)
        }
    }

    private static let csvSpecials = ASCIISet([UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "\n"), UInt8(ascii: "\r")])
    private static let tsvSpecials = ASCIISet([UInt8(ascii: "\\"), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")])

    /// RFC 4180: quoted when holding a comma, a double quote, CR or LF (or when empty, to differ
    /// from a missing field), double quotes doubled.
    ///
    /// One pass over the UTF-8: runs of plain bytes are copied whole, and the opening quote is
    /// put in front of the field only once a byte shows it is needed.
    private static func appendCSV(_ text: UnsafeBufferPointer<UInt8>, to line: inout ByteBuffer) {
        if !text.isEmpty && !csvSpecials.occurs(in: text) { return line.append(text) }
        let quote = UInt8(ascii: "\"")
        let fieldStart = line.count
        var needsQuotes = text.isEmpty
        var run = 0
        for position in text.indices {
            switch text[position] {
            case quote:
                // Copy through this quote, and start the next run at it: it is written twice.
                line.append(UnsafeBufferPointer(rebasing: text[run...position]))
                run = position
                needsQuotes = true
            case UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                needsQuotes = true
            default:
                continue
            }
        }
        line.append(UnsafeBufferPointer(rebasing: text[run...]))
        guard needsQuotes else { return }
        line.insert(quote, at: fieldStart)
        line.append(quote)
    }

    /// Backslash, tab, LF and CR as `\\`, `\t`, `\n`, `\r`: one pass over the UTF-8, runs of plain
    /// bytes copied whole.
    private static func appendTSV(_ text: UnsafeBufferPointer<UInt8>, to line: inout ByteBuffer) {
        if !tsvSpecials.occurs(in: text) { return line.append(text) }
        var run = 0
        for position in text.indices {
            let escape: UInt8
            switch text[position] {
            case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
            case UInt8(ascii: "\t"): escape = UInt8(ascii: "t")
            case UInt8(ascii: "\n"): escape = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): escape = UInt8(ascii: "r")
            default: continue
            }
            line.append(UnsafeBufferPointer(rebasing: text[run..<position]))
            line.append(UInt8(ascii: "\\"))
            line.append(escape)
            run = position + 1
        }
        line.append(UnsafeBufferPointer(rebasing: text[run...]))
    }
}
