/// Writes albums one by one in an interchange format (CSV, TSV, JSON, NDJSON) to a `ByteSink`.
///
/// Each album's bytes reach the sink as soon as `write` returns, so nothing holds the whole
/// output. Call `finish()` once at the end: it closes the format (the `]` of a JSON array, the
/// header of an empty CSV) and flushes the sink. A writer is used by one thread at a time.
package protocol AlbumWriter: AnyObject {
    /// Writes one album.
    ///
    /// - Parameter index: The album's 0-based place in the list when known (the CLI's listings),
    ///   else `nil`: JSON then leaves out the `index` key, CSV and TSV leave its column empty.
    /// - Throws: `ByteSinkError` from the sink.
    func write(_ album: Album, index: Int?) throws

    /// Ends the output and flushes the sink. Write nothing after it.
    ///
    /// - Throws: `ByteSinkError` from the sink.
    func finish() throws
}

extension AlbumWriter {
    /// Writes one album without an index.
    package func write(_ album: Album) throws {
        try write(album, index: nil)
    }

    /// Writes every album of `albums` with its index, in order. Call `finish()` after the last.
    package func write(contentsOf albums: some Sequence<(index: Int, album: Album)>) throws {
        for (index, album) in albums { try write(album, index: index) }
    }
}
