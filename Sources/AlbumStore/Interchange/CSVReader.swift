/// Reads CSV (RFC 4180) and TSV catalogs: the header is the first non-blank record, each further
/// record one `CatalogRecord` of text values.
///
/// What it accepts: fields quoted with `"` holding separators, doubled quotes and line breaks;
/// records ended by CRLF, LF or a lone CR; a missing final line break; blank lines (skipped). Bytes
/// after a closing quote and before the next separator are kept as written (`"a"b` is `ab`), as
/// most CSV writers read them. TSV is the same with a tab; its unquoted fields also undo the
/// escapes `TSVWriter` writes (`\\`, `\t`, `\n`, `\r`; another backslash stays), so a TSV export
/// reads back as it was.
///
/// Values are the cells' text as written (leading zeros and spaces kept). An empty cell is left
/// out (absent); a quoted empty one (`""`, which the writers use for an empty text) is `""`.
///
/// A record that cannot be a row still comes back, with a `problem` and its line: a field count
/// other than the header's, a NUL byte, a field over 1 MiB (whose bytes are dropped as they are
/// read: memory stays bounded), bytes that are not UTF-8, a quote never closed. A record over
/// `recordLimit` stops the reading instead: no catalog has one, and a source that never ends a
/// record (`/dev/zero`, a binary file) would otherwise be read to its end, if it has one.
///
/// The hot path scans chunk buffers byte by byte through a pointer and makes one String per
/// non-empty cell straight from the buffer: no per-byte appends.
struct CSVReader: CatalogReader {
    /// A field longer than this many bytes makes its record's problem.
    static let fieldLimit = 1 << 20
    /// A record longer than this many bytes is an error that ends the reading: 16 MiB, room for
    /// an album's fields at their limit and many ignored columns.
    static let recordLimit = 16 << 20

    private(set) var columns: [String] = []
    var bytesRead: Int { input.bytesRead }

    private let input: CatalogInput
    let separator: UInt8
    /// `\` in TSV, where it starts an escape; 0 in CSV, which the scan checks anyway (NUL).
    private let backslash: UInt8
    /// Bytes above this one (but `backslash`) never end a field: one comparison for most bytes.
    private let plainAbove: UInt8
    private let minimumFieldCount: Int?
    private let isCheckedUTF8: Bool

    private var window: UnsafeMutablePointer<UInt8>
    private var windowEnd: Int
    private var position = 0
    private var line = 1
    /// The input's offset of `window[0]`: the bytes dropped before it.
    private var windowOffset = 0
    /// The input's offset and line of the record being read; `Int.max` between records.
    private var recordStart = Int.max
    private var recordLine = 1

    // The record being read.
    private var values: [(column: Int, value: SourceValue)] = []
    private var fieldIndex = 0
    private var problem: String?
    /// The field being read is over the limit: its bytes are no longer kept.
    private var dropsField = false
    private var scratch: [UInt8] = []
    /// Without a header: the first record, read to count the columns, handed out first.
    private var firstRecord: (CatalogRecord, fieldCount: Int)?
    /// Whether the first record named the columns.
    private let hasHeader: Bool

    /// A reader of `input`, whose header it reads at once.
    ///
    /// - Parameters:
    ///   - separator: `,` for CSV (or another delimiter: `;`, `|`), a tab for TSV (which also
    ///     undoes the TSV writer's escapes).
    ///   - hasHeader: `false` reads the first record as a row too, its columns named `1`, `2`, ...
    ///   - minimumFieldCount: Records with this many fields up to the header's count are whole (the
    ///     trailing ones missing); `nil`: exactly the header's count. Discogs exports need it.
    /// - Throws: `CatalogError` when the header cannot be read (a NUL byte, not UTF-8, ...).
    init(over input: CatalogInput, separator: UInt8 = UInt8(ascii: ","), hasHeader: Bool = true,
         minimumFieldCount: Int? = nil) throws {
        self.input = input
        self.hasHeader = hasHeader
        self.separator = separator
        let isTSV = separator == UInt8(ascii: "\t")
        backslash = isTSV ? UInt8(ascii: "\\") : 0
        plainAbove = max(separator, 0x0D)
        self.minimumFieldCount = minimumFieldCount
        isCheckedUTF8 = input.isCheckedUTF8
        window = input.bytes
        windowEnd = input.count
        guard let (header, fieldCount) = try readRecord() else { return }
        guard hasHeader else {
            columns = (1...fieldCount).map { String($0) }
            firstRecord = (header, fieldCount)
            return
        }
        if let problem = header.problem { throw CatalogError(line: header.line, reason: "the header \(problem)") }
        var names = [String](repeating: "", count: fieldCount)
        for (column, value) in header.values {
            if case let .text(name) = value { names[column] = name.trimmingWhitespace() }
        }
        columns = names
    }

    mutating func next() throws -> CatalogRecord? {
        let next = try firstRecord ?? readRecord()
        firstRecord = nil
        guard let (read, fieldCount) = next else { return nil }
        var record = read
        let expected = columns.count
        if record.problem == nil && (fieldCount > expected || fieldCount < min(minimumFieldCount ?? expected, expected)) {
            record.problem = "has \(fieldCount) field\(fieldCount == 1 ? "" : "s"), "
                + (hasHeader ? "the header has \(expected)" : "the first row has \(expected)")
        }
        if fieldCount > expected { record.values.removeAll { $0.column >= expected } }
        return record
    }

    // MARK: The scanner

    /// Reads the next record whatever its field count; `nil` at the end of the input.
    private mutating func readRecord() throws -> (CatalogRecord, fieldCount: Int)? {
        let quote = UInt8(ascii: "\""), lineFeed: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D
        let separator = separator, backslash = backslash, plainAbove = plainAbove
        var pos = position
        var mark = pos

        // Blank lines.
        while true {
            if pos == windowEnd {
                mark = pos
                guard try fill(&pos, &mark) else {
                    position = pos
                    return nil
                }
                continue
            }
            let byte = window[pos]
            if byte == lineFeed {
                line += 1
                pos += 1
            } else if byte == carriageReturn {
                line += 1
                pos += 1
                mark = pos
                try skipLineFeed(&pos, &mark)
            } else {
                break
            }
        }

        recordLine = line
        recordStart = windowOffset + pos
        defer { recordStart = .max }
        // Emptied in place: the last record's values were handed out sharing this buffer, and
        // once the caller is done with that record the buffer is ours alone again (no new
        // allocation a record).
        values.removeAllKeepingCapacity()
        values.reserveCapacity(max(columns.count, 4))
        fieldIndex = 0
        problem = nil

        fields: while true {
            mark = pos
            dropsField = false
            if pos == windowEnd, try !fill(&pos, &mark) {
                // The input ends right after a separator: an empty last field.
                fieldIndex += 1
                break fields
            }
            if window[pos] == quote {
                let quoteLine = line
                pos += 1
                var doubled = false
                quoted: while true {
                    let bytes = window, end = windowEnd
                    while pos < end {
                        let byte = bytes[pos]
                        if byte > quote || (byte != quote && byte != lineFeed && byte != carriageReturn && byte != 0) {
                            pos += 1
                        } else {
                            break
                        }
                    }
                    if pos == end {
                        guard try fill(&pos, &mark) else {
                            // A record whose quote is never closed: say where it opened.
                            problem = "has a quote opened on line \(quoteLine) that is never closed"
                            fieldIndex += 1
                            break fields
                        }
                        continue
                    }
                    switch window[pos] {
                    case lineFeed:
                        line += 1
                        pos += 1
                    case carriageReturn:
                        line += 1
                        pos += 1
                        try skipLineFeed(&pos, &mark)
                    case 0:
                        note("contains a NUL byte")
                        pos += 1
                    default:
                        pos += 1
                        if pos == windowEnd, try !fill(&pos, &mark) { break quoted }
                        guard window[pos] == quote else { break quoted }
                        doubled = true
                        pos += 1
                    }
                }
                // After the closing quote: anything up to the separator or the line end is kept.
                let closed = pos
                try scanUnquoted(&pos, &mark)
                if pos == closed && !doubled {
                    emit(from: mark + 1, count: pos - 1 - (mark + 1), quoted: true, escaped: false)
                } else {
                    emit(from: mark, count: pos - mark, quoted: true, escaped: true)
                }
            } else {
                // The common case, inlined: a run of plain bytes up to a separator or line end.
                let bytes = window, end = windowEnd
                while pos < end {
                    let byte = bytes[pos]
                    if byte != backslash && (byte > plainAbove
                        || (byte != separator && byte != lineFeed && byte != carriageReturn && byte != 0)) {
                        pos += 1
                    } else {
                        break
                    }
                }
                if pos < end && bytes[pos] != 0 && bytes[pos] != backslash {
                    emit(from: mark, count: pos - mark, quoted: false, escaped: false)
                } else {
                    let escaped = try scanUnquoted(&pos, &mark)
                    emit(from: mark, count: pos - mark, quoted: false, escaped: escaped)
                }
            }
            fieldIndex += 1

            mark = pos
            if pos == windowEnd, try !fill(&pos, &mark) { break fields }
            let byte = window[pos]
            pos += 1
            if byte == separator { continue fields }
            line += 1
            if byte == carriageReturn {
                mark = pos
                try skipLineFeed(&pos, &mark)
            }
            break fields
        }
        position = pos
        return (CatalogRecord(line: recordLine, values: values, problem: problem), fieldIndex)
    }

    /// Moves `pos` to the next separator or line end (or the end of the input), noting NUL bytes.
    /// - Returns: Whether a TSV backslash escape was met.
    @discardableResult
    private mutating func scanUnquoted(_ pos: inout Int, _ mark: inout Int) throws -> Bool {
        let separator = separator, backslash = backslash
        var escaped = false
        while true {
            let bytes = window, end = windowEnd
            while pos < end {
                let byte = bytes[pos]
                if byte == separator || byte == 0x0A || byte == 0x0D { return escaped }
                if byte == 0 {
                    note("contains a NUL byte")
                } else if byte == backslash {
                    escaped = true
                }
                pos += 1
            }
            guard try fill(&pos, &mark) else { return escaped }
        }
    }

    /// After a CR: steps over an LF that follows it (CRLF is one line end).
    private mutating func skipLineFeed(_ pos: inout Int, _ mark: inout Int) throws {
        if pos == windowEnd, try !fill(&pos, &mark) { return }
        if window[pos] == 0x0A { pos += 1 }
    }

    /// Reads the next chunk keeping the bytes from `mark` on (the field being read), unless that
    /// field is over the limit: then it is dropped and only its end is looked for.
    ///
    /// - Throws: `CatalogError` when the record is over `recordLimit`.
    private mutating func fill(_ pos: inout Int, _ mark: inout Int) throws -> Bool {
        if !dropsField && pos - mark > Self.fieldLimit {
            dropsField = true
            note("field \(fieldIndex + 1) is over 1 MiB")
        }
        if windowOffset + pos - recordStart > Self.recordLimit {
            throw CatalogError(
                line: recordLine,
                reason: "has a record over \(Self.recordLimit >> 20) MiB, where reading stopped (not a catalog?)"
                    + (problem.map { "; first problem: \($0)" } ?? ""))
        }
        if dropsField { mark = pos }
        let keep = mark
        let more = try input.advance(keeping: keep)
        windowOffset += keep
        pos -= keep
        mark = 0
        window = input.bytes
        windowEnd = input.count
        return more
    }

    private mutating func note(_ reason: String) {
        if problem == nil { problem = reason }
    }

    /// Adds the field `window[start..<start+count]` to the record's values: as is, or with its
    /// quotes or TSV escapes undone.
    private mutating func emit(from start: Int, count: Int, quoted: Bool, escaped: Bool) {
        guard !dropsField else { return }
        guard count <= Self.fieldLimit else { return note("field \(fieldIndex + 1) is over 1 MiB") }
        guard count > 0 || quoted else { return }
        let text: String?
        if escaped {
            unescape(UnsafeBufferPointer(start: window + start, count: count), quoted: quoted)
            text = scratch.withUnsafeBufferPointer { makeString($0) }
        } else {
            text = makeString(UnsafeBufferPointer(start: window + start, count: count))
        }
        guard let text else { return note("field \(fieldIndex + 1) is not valid UTF-8") }
        values.append((fieldIndex, .text(text)))
    }

    /// A String of `bytes`, or `nil` when they are not UTF-8; not checked again when the input
    /// checked them all.
    @inline(__always)
    private func makeString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        isCheckedUTF8 ? String(decoding: bytes, as: UTF8.self) : UTF8Validator.string(from: bytes)
    }

    /// The field's text into `scratch`: without its quotes (doubled ones made single), or with
    /// the TSV escapes undone.
    private mutating func unescape(_ raw: UnsafeBufferPointer<UInt8>, quoted: Bool) {
        let quote = UInt8(ascii: "\"")
        scratch.removeAll(keepingCapacity: true)
        var index = 0
        if quoted {
            var inQuotes = true
            index = 1
            while index < raw.count {
                let byte = raw[index]
                index += 1
                if inQuotes && byte == quote {
                    if index < raw.count && raw[index] == quote {
                        scratch.append(quote)
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    scratch.append(byte)
                }
            }
            return
        }
        while index < raw.count {
            let byte = raw[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < raw.count else {
                scratch.append(byte)
                continue
            }
            switch raw[index] {
            case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            default:
                scratch.append(byte)
                continue
            }
            index += 1
        }
    }
}
