/// What CSV and TSV share: a header written before the first line, one line per record handed to
/// the sink as soon as it is complete, numbers and dates written without building strings. Only
/// how a text field is escaped differs.
struct DelimitedTable {
    enum Style {
        case csv, tsv

        var separator: UInt8 { self == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t") }
    }

    let sink: any ByteSink
    let style: Style
    let header: [String]
    /// The album field of each column; `nil` for a table of rows of text.
    let fields: [AlbumField]?
    private var line: [UInt8] = []
    private var wroteHeader = false
    private var isFinished = false

    init(sink: any ByteSink, style: Style, header: [String], fields: [AlbumField]?) {
        self.sink = sink
        self.style = style
        self.header = header
        self.fields = fields
    }

    mutating func write(_ album: Album, index: Int?) throws {
        guard let fields else { preconditionFailure("a writer made with init(to:header:) writes rows, not albums") }
        startLine()
        for (column, field) in fields.enumerated() {
            if column > 0 { line.append(style.separator) }
            switch field.value(in: album, index: index) {
            case let .text(text): appendText(text)
            case let .integer(number): line.appendDecimal(number)
            case let .date(date): ISO8601Timestamp.append(date, to: &line)
            case .null: break
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
            try sink.write(line)
        }
        isFinished = true
        try sink.flush()
    }

    /// Empties the line buffer, starting it with the header line when none was written yet.
    private mutating func startLine() {
        precondition(!isFinished, "write after finish()")
        line.removeAll(keepingCapacity: true)
        if !wroteHeader {
            wroteHeader = true
            append(header)
            line.append(UInt8(ascii: "\n"))
        }
    }

    private mutating func endLine() throws {
        line.append(UInt8(ascii: "\n"))
        try sink.write(line)
    }

    private mutating func append(_ fields: [String?]) {
        for (column, field) in fields.enumerated() {
            if column > 0 { line.append(style.separator) }
            if let field { appendText(field) }
        }
    }

    private mutating func appendText(_ text: String) {
        switch style {
        case .csv: appendCSV(text)
        case .tsv: appendTSV(text)
        }
    }

    /// RFC 4180: quoted when holding a comma, a double quote, CR or LF (or when empty, to differ
    /// from a missing field), double quotes doubled.
    ///
    /// One pass over the UTF-8: runs of plain bytes are copied whole, and the opening quote is
    /// put in front of the field only once a byte shows it is needed.
    private mutating func appendCSV(_ text: String) {
        let quote = UInt8(ascii: "\"")
        let fieldStart = line.count
        var needsQuotes = text.isEmpty
        var text = text
        text.withUTF8 { bytes in
            var run = 0
            for position in bytes.indices {
                switch bytes[position] {
                case quote:
                    // Copy through this quote, and start the next run at it: it is written twice.
                    line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...position]))
                    run = position
                    needsQuotes = true
                case UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    needsQuotes = true
                default:
                    continue
                }
            }
            line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
        guard needsQuotes else { return }
        line.insert(quote, at: fieldStart)
        line.append(quote)
    }

    /// Backslash, tab, LF and CR as `\\`, `\t`, `\n`, `\r`: one pass over the UTF-8, runs of plain
    /// bytes copied whole.
    private mutating func appendTSV(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var run = 0
            for position in bytes.indices {
                let escape: UInt8
                switch bytes[position] {
                case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
                case UInt8(ascii: "\t"): escape = UInt8(ascii: "t")
                case UInt8(ascii: "\n"): escape = UInt8(ascii: "n")
                case UInt8(ascii: "\r"): escape = UInt8(ascii: "r")
                default: continue
                }
                line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<position]))
                line.append(UInt8(ascii: "\\"))
                line.append(escape)
                run = position + 1
            }
            line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
        }
    }
}
