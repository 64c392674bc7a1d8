internal import AlbumSQLite

/// A writer that writes an album straight from a row of the albums query (`Album.columns`),
/// without building an `Album`: its texts never become Strings. The library's own writers are
/// such writers; `AlbumRepository.write(to:offset:limit:)` uses it.
protocol RowWriting: AlbumWriter {
    /// Writes the album of `row` with its index.
    func write(row: borrowing Row, index: Int) throws
}

/// `writer` as a `RowWriting` when it is one of the library's own writers, else `nil`.
///
/// By class, not `writer as? any RowWriting`: a cast to a protocol makes the Swift runtime scan
/// every protocol conformance in the binary on its first use, in each process (0.18 million
/// instructions of a 7 million `albumstore query`), while a cast to a class compares class
/// pointers. Every `RowWriting` type is listed here (a test checks each).
func rowWriter(_ writer: some AlbumWriter) -> (any RowWriting)? {
    if let writer = writer as? CSVWriter { return writer }
    if let writer = writer as? TSVWriter { return writer }
    if let writer = writer as? JSONWriter { return writer }
    if let writer = writer as? NDJSONWriter { return writer }
    return nil
}
