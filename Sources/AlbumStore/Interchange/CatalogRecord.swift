/// The seam between the catalog readers (CSV, TSV, JSON, NDJSON, Discogs, Library.xml) and the
/// import: a reader turns a file into records of source values, the import maps them to album
/// fields, checks them and writes them. Readers know formats and encodings, not albums.

/// A value a catalog file gives for one field of one record, before it is checked.
enum SourceValue: Equatable, Sendable {
    /// A CSV or TSV cell, a JSON string, a property-list string or date (as written).
    case text(String)
    /// A JSON or property-list number, as written (`1971`, `1.5e3`).
    case number(String)
    case bool(Bool)
    /// A JSON object or array where a plain value belongs.
    case nested
}

/// One record of a catalog file: where it starts, and its values by source column.
struct CatalogRecord: Sendable {
    /// The 1-based line of the file where the record starts (a CSV record may span lines).
    var line: Int
    /// The record's values, by index into the reader's `columns`. Empty CSV cells and JSON
    /// nulls are left out: an absent value, not an empty string.
    var values: [(column: Int, value: SourceValue)]
    /// Why the record cannot be read as a row (a wrong number of fields, a NUL byte, a field
    /// over the size limit, a bad NDJSON line): the import rejects it with its line. `nil` when
    /// it was read whole.
    var problem: String?
}

/// Reads a catalog file as a stream of records, in bounded memory.
protocol CatalogReader {
    /// The source names met so far (a CSV header; JSON keys in the order first seen). Records
    /// refer to them by index; a name keeps its index once given.
    var columns: [String] { get }
    /// The next record, or `nil` at the end of the file.
    /// - Throws: `CatalogError` when the file itself cannot be read on (a JSON syntax error, an
    ///   XML error, an I/O error): the whole import stops.
    mutating func next() throws -> CatalogRecord?
    /// How many bytes of the file were read so far (for progress against the file size).
    var bytesRead: Int { get }
    /// Entries the reader left out as not music (Library.xml: videos, podcasts, ...), by kind,
    /// for the import's summary.
    var skippedNotMusic: [String: Int] { get }
}

extension CatalogReader {
    var skippedNotMusic: [String: Int] { [:] }
}

/// A catalog file that cannot be read on: where (1-based line) and why. The import adds the
/// file's name when it reports it.
struct CatalogError: Error, Equatable, Sendable {
    var line: Int
    var reason: String
}
