internal import AlbumSQLite

/// A writer that writes an album straight from a row of the albums query (`Album.columns`),
/// without building an `Album`: its texts never become Strings. The library's own writers are
/// such writers; `AlbumRepository.write(to:offset:limit:)` uses it.
protocol RowWriting: AlbumWriter {
    /// Writes the album of `row` with its index.
    func write(row: borrowing Row, index: Int) throws
}
