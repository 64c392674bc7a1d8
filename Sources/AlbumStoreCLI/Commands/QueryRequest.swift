import AlbumStore
import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What an `albumstore query` line asks, as plain values, however it was read: by ArgumentParser
/// (`Query.request`) or by `FastPath`, which must not touch ArgumentParser's types (each
/// costs the Swift runtime a scan of the binary's conformances).
struct QueryRequest: Equatable {
    var db: String?
    var verbose = false
    var terms: [String] = []
    var sort: String?
    var offset = 0
    var limit: Int?
    var count = false
    var template: String?
    var format = OutputFormat.table
    var wide = false

    /// - Throws: `ValidationError` (a usage error) for a negative --offset or --limit, or a
    ///   template that does not compile.
    func validate() throws {
        guard offset >= 0 else { throw ValidationError("--offset must not be negative.") }
        guard (limit ?? 0) >= 0 else { throw ValidationError("--limit must not be negative.") }
        if let template {
            do { _ = try AlbumTemplate(template) } catch { throw ValidationError(error.description) }
        }
    }

    func run() throws {
        let query = try QueryTerms.query(terms)
        let sort = try SortOption.parsed(sort)
        let albums = try StoreOptions.openLibrary(db: db, .readOnly).albums
        if count {
            // Not `print`: its `Any` asks the Swift runtime for the number's conformances, and
            // a full disk would go unnoticed.
            let stdout = FileDescriptorSink(fileDescriptor: STDOUT_FILENO)
            try stdout.write(String(try albums.count(matching: query)) + "\n")
            try stdout.flush()
            return
        }
        let limit = limit ?? .max
        let writer: any AlbumWriter
        if let template {
            writer = TemplateWriter(try AlbumTemplate(template), to: FileDescriptorSink(fileDescriptor: STDOUT_FILENO))
        } else {
            var lastIndex: Int?
            // As `list`: the `#` column is as wide as the last index, which only the count tells
            // when there are more results than the table measures.
            if format == .table && limit > TableLayout.sampleSize {
                let total = try albums.count(matching: query) - offset
                lastIndex = total > 0 ? offset + min(total, limit) - 1 : nil
            }
            writer = AlbumPrinter.writer(format: format, wide: wide, lastIndex: lastIndex)
        }
        try albums.write(matching: query, sortedBy: sort, offset: offset, limit: limit, to: writer)
    }
}
