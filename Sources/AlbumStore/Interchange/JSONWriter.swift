internal import AlbumSQLite

/// Writes albums as one JSON array, an object a line: `[{...},\n{...}]\n`.
///
/// The array is written as it goes: `[` and the first object with the first album, `,\n` and the
/// next object with each further one, `]` and a line feed on `finish()` (`[]\n` for no albums).
/// Each object is the documented album object: snake_case keys in `AlbumField` order, `index`
/// only when known, `null` for a missing field, dates as `ISO8601Timestamp` strings, e.g.
///
///     [{"index":0,"id":1,"title":"Low","artist":"David Bowie","genre":"Rock","year":1977,"cover_url":null,"external_id":"discogs:123","created_at":"2026-11-22T01:51:30.123Z","updated_at":"2026-11-22T01:51:30.123Z"}]
public final class JSONWriter: AlbumWriter, RowWriting {
    private let sink: any ByteSink
    private var record = ByteBuffer()
    private var count = 0
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
        if count == 0 {
            record.append(UInt8(ascii: "["))
        } else {
            record.append(UInt8(ascii: ","))
            record.append(UInt8(ascii: "\n"))
        }
        try AlbumJSON.append(album, index: index, to: &record)
        count += 1
        try record.withBytes { try sink.write($0) }
    }

    public func finish() throws {
        guard !isFinished else { return }
        isFinished = true
        try sink.write(count == 0 ? "[]\n" : "]\n")
        try sink.flush()
    }
}
