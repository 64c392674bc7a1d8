import FoundationEssentials

/// The file an import writes its rejected rows to (`ImportOptions.rejectsPath`), as they come.
///
/// CSV with the columns `file`, `line`, `field`, `reason` and `record`: the row's values as a
/// JSON object of source column to value, so that rows of any format fit one file a
/// spreadsheet opens. Written in bounded memory, and closed (flushed) at the end.
final class RejectsFile {
    private let file: OpenFile
    private let writer: CSVWriter

    /// Creates (or truncates) the file at `path`.
    /// - Throws: `ImportError.unreadable` naming the path when it cannot be created.
    init(path: String) throws {
        do { file = try OpenFile.writing(path) } catch {
            throw ImportError.unreadable(file: path, line: 0, reason: "cannot write the rejects file: \(error)")
        }
        writer = CSVWriter(to: file.sink(), header: ["file", "line", "field", "reason", "record"])
    }

    func write(_ rejection: ImportRejection, record: CatalogRecord, columns: [String]) throws {
        var object = ByteBuffer()
        object.append(UInt8(ascii: "{"))
        for (offset, (column, value)) in record.values.enumerated() {
            if offset > 0 { object.append(UInt8(ascii: ",")) }
            JSONString.append(column >= 0 && column < columns.count ? columns[column] : "#\(column)", to: &object)
            object.append(UInt8(ascii: ":"))
            switch value {
            case .text(let text): JSONString.append(text, to: &object)
            case .number(let literal): JSONString.append(literal, to: &object)
            case .bool(let flag): JSONString.append(flag ? "true" : "false", to: &object)
            case .nested: object.append("null")
            }
        }
        object.append(UInt8(ascii: "}"))
        let record = object.withBytes { String(decoding: $0, as: UTF8.self) }
        try writer.write(row: [rejection.file, String(rejection.line), rejection.field, rejection.reason, record])
    }

    /// Flushes and closes the file.
    func close() throws {
        defer { file.close() }
        try writer.finish()
    }
}
