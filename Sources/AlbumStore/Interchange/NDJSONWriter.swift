internal import AlbumSQLite

/// Writes albums as newline-delimited JSON: one object a line, each line ending in a line feed.
///
/// Each line is the same object `JSONWriter` writes, e.g.
///
///     {"index":0,"id":1,"title":"Low","artist":"David Bowie","genre":"Rock","year":1977,"cover_url":null,"external_id":"discogs:123","created_at":"2026-11-22T01:51:30.123Z","updated_at":"2026-11-22T01:51:30.123Z"}
///
/// No albums give no output. Line breaks inside text are escaped, so a line is always one album.
public final class NDJSONWriter: AlbumWriter, RowWriting {
    private let sink: any ByteSink
    private var record = ByteBuffer()
    private var isFinished = false

    /// A writer that writes to `sink`.
    public init(to sink: any ByteSink) {
        self.sink = sink
    }

    public func write(_ album: Album, index: Int?) throws {
        try write(fieldsOf: album, index: index)
    }

    func write(row: borrowing Row, index: Int) throws {
        try write(fieldsOf: row, index: index)
    }

    private func write(fieldsOf album: borrowing some AlbumFieldSource & ~Copyable, index: Int?) throws {
        precondition(!isFinished, "write after finish()")
        record.removeAll()
        try AlbumJSON.append(album, index: index, to: &record)
        record.append(UInt8(ascii: "\n"))
        try record.withBytes { try sink.write($0) }
    }

    public func finish() throws {
        guard !isFinished else { return }
        isFinished = true
        try sink.flush()
    }
}
