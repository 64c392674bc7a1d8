internal import AlbumSQLite

/// Writes CSV (RFC 4180): a header line, then one line per album or row.
///
/// - Fields are separated by `,`; a field holding a comma, a double quote, a CR or an LF is put
///   in double quotes, its double quotes doubled: `"Hello, ""World"""`. Line breaks inside a
///   quoted field are kept as they are.
/// - Lines end with LF alone (RFC 4180 says CRLF; every CSV reader we know takes LF, and it is what
///   Unix tools expect). The last line ends with LF too.
/// - A missing field (`nil`, `null` in JSON) is empty, `,,`; an empty text is `""`, so the two
///   stay apart (as in PostgreSQL's CSV). Albums never hold empty optional text.
/// - Numbers are decimal, dates `ISO8601Timestamp` strings, text is UTF-8 without a byte order mark.
///
/// The header is written with the first line, or by `finish()` when there is none, e.g.
///
///     index,id,title,artist,genre,year,cover_url,external_id,created_at,updated_at
///     0,1,"Hello, ""World""",David Bowie,Rock,1977,,discogs:123,2026-11-22T01:51:30.123Z,2026-11-22T01:51:30.123Z
public final class CSVWriter: AlbumWriter, RowWriting {
    private var table: DelimitedTable

    /// A writer of albums whose columns are `fields`, headed by their names.
    ///
    /// - Parameter fields: The columns, by default every field in the documented order (`index`
    ///   first; its column is empty for albums written without one). `AlbumField.stored` leaves it out.
    public init(to sink: any ByteSink, fields: [AlbumField] = AlbumField.allCases) {
        table = DelimitedTable(sink: sink, style: .csv, header: fields.map(\.header), fields: fields)
    }

    /// A writer of rows of text under `header`, for records that are not albums (`write(row:)`).
    public init(to sink: any ByteSink, header: [String]) {
        table = DelimitedTable(sink: sink, style: .csv, header: header, fields: nil)
    }

    /// Writes one album as a line of the `fields` given to `init(to:fields:)`.
    ///
    /// A writer made with `init(to:header:)` has no fields to write: it is a programming error.
    public func write(_ album: Album, index: Int?) throws {
        try table.write(album, index: index)
    }

    func write(row: borrowing Row, index: Int) throws {
        try table.write(row, index: index)
    }

    /// Writes one line of fields, `nil` for a missing one; as many fields as the header has.
    public func write(row: [String?]) throws {
        try table.write(row: row)
    }

    public func finish() throws {
        try table.finish()
    }
}
