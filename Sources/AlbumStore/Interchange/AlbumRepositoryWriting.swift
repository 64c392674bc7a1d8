internal import AlbumSQLite

/// The album writers (`CSVWriter`, `JSONWriter`, ...) fed from the ordered list or a query: each
/// row's bytes go straight from the database to the writer, without building an `Album`.
extension AlbumRepository {
    /// Writes the albums `forEach(offset:limit:_:)` reads to `writer`, each with its index, as
    /// they are read, then calls `writer.finish()`.
    ///
    /// The library's writers (`CSVWriter`, `TSVWriter`, `JSONWriter`, `NDJSONWriter`) write each
    /// row's bytes straight from the database, without building an `Album`.
    /// - Throws: `StorageError`, or the writer's error (`ByteSinkError`); the output then stops
    ///   where it failed.
    package func write(to writer: some AlbumWriter, offset: Int = 0, limit: Int = .max) throws {
        if let direct = rowWriter(writer) {
            try forEachRow(offset: offset, limit: limit) { index, row in try direct.write(row: row, index: index) }
        } else {
            try forEachRow(offset: offset, limit: limit) { index, row in try writer.write(try Album(row: row), index: index) }
        }
        try writer.finish()
    }

    /// `write(to:offset:limit:)` without blocking Swift's cooperative threads: the writer is
    /// handed to a thread of its own, which reads, writes and finishes. The writer is sent, so
    /// nothing else may hold it or its sink: write to a file, say, and read the file afterwards.
    package func write<Writer: AlbumWriter & SendableMetatype>(
        to writer: sending Writer, offset: Int = 0, limit: Int = .max
    ) async throws {
        try await library.offCooperativeThreads { try self.write(to: writer, offset: offset, limit: limit) }
    }

    /// Writes the albums `query` matches to `writer` as they are read, then calls `finish()`; the
    /// library's writers write each row's bytes straight from the database.
    package func write(
        matching query: AlbumQuery, sortedBy sort: AlbumSort = .listOrder, offset: Int = 0, limit: Int = .max,
        to writer: some AlbumWriter
    ) throws {
        if let direct = rowWriter(writer) {
            try forEachRow(matching: query, sortedBy: sort, offset: offset, limit: limit) { index, row in
                try direct.write(row: row, index: index)
            }
        } else {
            try forEachRow(matching: query, sortedBy: sort, offset: offset, limit: limit) { index, row in
                try writer.write(try Album(row: row), index: index)
            }
        }
        try writer.finish()
    }
}
