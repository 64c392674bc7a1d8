import Foundation

/// The file an import writes its rejected rows to (`ImportOptions.rejectsPath`), as they come.
///
/// CSV with the columns `file`, `line`, `field`, `reason` and `record`: the row's values as a
/// JSON object of source column to value, so that rows of any format fit one file a
/// spreadsheet opens. Written in bounded memory, and closed (flushed) at the end.
final class RejectsFile {
    private let descriptor: Int32
    private let writer: CSVWriter
    private var isClosed = false

    /// Creates (or truncates) the file at `path`.
    /// - Throws: `ImportError.unreadable` naming the path when it cannot be created.
    init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ImportError.unreadable(file: path, line: 0, reason: "cannot write the rejects file: \(String(cString: strerror(errno)))")
        }
        writer = CSVWriter(to: FileDescriptorSink(fileDescriptor: descriptor), header: ["file", "line", "field", "reason", "record"])
    }

    deinit { if !isClosed { Foundation.close(descriptor) } }

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
        guard !isClosed else { return }
        isClosed = true
        defer { Foundation.close(descriptor) }
        try writer.finish()
    }
}
