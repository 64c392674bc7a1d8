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
    private mutating func appendCSV(_ text: String) {
        let quote = UInt8(ascii: "\"")
        let needsQuotes = text.isEmpty || text.utf8.contains {
            $0 == UInt8(ascii: ",") || $0 == quote || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
        }
        guard needsQuotes else { return line.appendUTF8(text) }
        line.append(quote)
        for byte in text.utf8 {
            if byte == quote { line.append(quote) }
            line.append(byte)
        }
        line.append(quote)
    }

    /// Backslash, tab, LF and CR as `\\`, `\t`, `\n`, `\r`.
    private mutating func appendTSV(_ text: String) {
        let escaped: (UInt8) -> Bool = {
            $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
        }
        guard text.utf8.contains(where: escaped) else { return line.appendUTF8(text) }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\t"): line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case UInt8(ascii: "\n"): line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): line.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            default: line.append(byte)
            }
        }
    }
}
