internal import AlbumSQLite

/// Writes albums as one JSON array, an object a line: `[{...},\n{...}]\n`.
///
/// The array is written as it goes: `[` and the first object with the first album, `,\n` and the
/// next object with each further one, `]` and a line feed on `finish()` (`[]\n` for no albums).
/// Each object is the documented album object: snake_case keys in `AlbumField` order, `index`
/// only when known, `null` for a missing field, dates as `ISO8601Timestamp` strings, e.g.
///
///     [{"index":0,"id":1,"title":"Low","artist":"David Bowie","genre":"Rock","year":1977,"cover_url":null,"external_id":"discogs:123","created_at":"2026-11-22T01:51:30.123Z","updated_at":"2026-11-22T01:51:30.123Z"}]
package final class JSONWriter: AlbumWriter, RowWriting {
    private var records: JSONRecords

    /// A writer that writes to `sink`.
    package init(to sink: any ByteSink) {
        records = JSONRecords(sink: sink)
    }

    package func write(_ album: Album, index: Int?) throws {
        try records.write(album, index: index, before: records.count == 0 ? "[" : ",\n")
    }

    func write(row: borrowing Row, index: Int) throws {
        try records.write(row, index: index, before: records.count == 0 ? "[" : ",\n")
    }

    package func finish() throws {
        try records.finish(closing: records.count == 0 ? "[]\n" : "]\n")
    }
}
