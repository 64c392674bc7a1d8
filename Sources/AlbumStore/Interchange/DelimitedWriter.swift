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
package typealias CSVWriter = DelimitedWriter<CSVFormat>

/// Writes TSV: a header line, then one line per album or row, fields separated by tabs.
///
/// - Inside a field, a backslash, a tab, an LF and a CR are written `\\`, `\t`, `\n`, `\r` (as in
///   PostgreSQL's text format), so every line is one record and every tab separates fields. No
///   quoting: `"` and `,` are plain characters.
/// - Lines end with LF. A missing field is empty, and so is an empty text: TSV cannot tell them
///   apart. Nothing is lost for albums, which never hold empty optional text.
/// - Numbers are decimal, dates `ISO8601Timestamp` strings, text is UTF-8 without a byte order mark.
///
/// The header is written with the first line, or by `finish()` when there is none, e.g.
/// (`→` standing for a tab)
///
///     index→id→title→artist→genre→year→cover_url→external_id→created_at→updated_at
///     0→1→Tab\there\nnew\\line→David Bowie→Rock→1977→→discogs:123→2026-11-22T01:51:30.123Z→2026-11-22T01:51:30.123Z
package typealias TSVWriter = DelimitedWriter<TSVFormat>

/// How a delimited text format separates and escapes fields: `CSVFormat` or `TSVFormat`.
package protocol DelimitedFormat {
    /// Whether fields are separated by tabs (TSV, backslash escapes) rather than commas (CSV, quotes).
    static var isTabSeparated: Bool { get }
}

package enum CSVFormat: DelimitedFormat { package static let isTabSeparated = false }
package enum TSVFormat: DelimitedFormat { package static let isTabSeparated = true }

extension DelimitedFormat {
    static var style: DelimitedTable.Style { isTabSeparated ? .tsv : .csv }
}

/// A writer of CSV or TSV (see `CSVWriter` and `TSVWriter`): one type, as the two differ only in
/// how a field is separated and escaped. `Format` is a `DelimitedFormat`, required by the
/// initializers rather than by the type: a requirement of the type makes the Swift runtime look
/// up the conformance (a scan of every conformance in the binary) when a process first makes one.
package final class DelimitedWriter<Format>: AlbumWriter, RowWriting {
    private var table: DelimitedTable

    private init(table: consuming DelimitedTable) { self.table = table }

    /// Writes one album as a line of the `fields` given to `init(to:fields:)`.
    ///
    /// A writer made with `init(to:header:)` has no fields to write: it is a programming error.
    package func write(_ album: Album, index: Int?) throws {
        try table.write(album, index: index)
    }

    func write(row: borrowing Row, index: Int) throws {
        try table.write(row, index: index)
    }

    /// Writes one line of fields, `nil` for a missing one; as many fields as the header has.
    package func write(row: [String?]) throws {
        try table.write(row: row)
    }

    package func finish() throws {
        try table.finish()
    }
}

extension DelimitedWriter where Format: DelimitedFormat {
    /// A writer of albums whose columns are `fields`, headed by their names.
    ///
    /// - Parameter fields: The columns, by default every field in the documented order (`index`
    ///   first; its column is empty for albums written without one). `AlbumField.stored` leaves it out.
    package convenience init(to sink: any ByteSink, fields: [AlbumField] = AlbumField.allCases) {
        self.init(table: DelimitedTable(sink: sink, style: Format.style, header: fields.map(\.header), fields: fields))
    }

    /// A writer of rows of text under `header`, for records that are not albums (`write(row:)`).
    package convenience init(to sink: any ByteSink, header: [String]) {
        self.init(table: DelimitedTable(sink: sink, style: Format.style, header: header, fields: nil))
    }
}
