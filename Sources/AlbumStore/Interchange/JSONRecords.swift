/// What `JSONWriter` and `NDJSONWriter` share: each album object is built in one reused buffer,
/// between the framing its format puts around it, and handed to the sink whole.
struct JSONRecords: ~Copyable {
    let sink: any ByteSink
    private var record = ByteBuffer()
    /// How many objects were written.
    private(set) var count = 0
    private var isFinished = false

    init(sink: any ByteSink) { self.sink = sink }

    mutating func write(
        _ album: borrowing some AlbumFieldSource & ~Copyable, index: Int?, before: StaticString = "", after: StaticString = ""
    ) throws {
        precondition(!isFinished, "write after finish()")
        record.removeAll()
        record.append(UnsafeBufferPointer(start: before.utf8Start, count: before.utf8CodeUnitCount))
        try AlbumJSON.append(album, index: index, to: &record)
        record.append(UnsafeBufferPointer(start: after.utf8Start, count: after.utf8CodeUnitCount))
        count += 1
        try record.withBytes { try sink.write($0) }
    }

    /// Writes `closing` and flushes the sink; later calls do nothing.
    mutating func finish(closing: String = "") throws {
        guard !isFinished else { return }
        isFinished = true
        if !closing.isEmpty { try sink.write(closing) }
        try sink.flush()
    }
}
