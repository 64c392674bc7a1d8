internal import AlbumSQLite

/// Writes albums as newline-delimited JSON: one object a line, each line ending in a line feed.
///
/// Each line is the same object `JSONWriter` writes, e.g.
///
///     {"index":0,"id":1,"title":"Low","artist":"David Bowie","genre":"Rock","year":1977,"cover_url":null,"external_id":"discogs:123","created_at":"2026-11-22T01:51:30.123Z","updated_at":"2026-11-22T01:51:30.123Z"}
///
/// No albums give no output. Line breaks inside text are escaped, so a line is always one album.
package final class NDJSONWriter: AlbumWriter, RowWriting {
    private var records: JSONRecords

    /// A writer that writes to `sink`.
    package init(to sink: any ByteSink) {
        records = JSONRecords(sink: sink)
    }

    package func write(_ album: Album, index: Int?) throws {
        try records.write(album, index: index, after: "\n")
    }

    func write(row: borrowing Row, index: Int) throws {
        try records.write(row, index: index, after: "\n")
    }

    package func finish() throws {
        try records.finish()
    }
}
