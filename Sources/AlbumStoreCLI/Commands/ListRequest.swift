import AlbumStore
import ArgumentParser

/// What an `albumstore list` line asks, as plain values, however it was read: by ArgumentParser
/// (`List.request`) or by `FastPath` (see `QueryRequest`).
struct ListRequest: Equatable {
    var db: String?
    var verbose = false
    /// A negative offset counts from the end.
    var offset = 0
    var limit: Int?
    var format = OutputFormat.table
    var wide = false

    /// - Throws: `ValidationError` (a usage error) for a negative --limit.
    func validate() throws {
        guard (limit ?? 0) >= 0 else { throw ValidationError("--limit must not be negative.") }
    }

    func run() throws {
        let albums = try StoreOptions.openLibrary(db: db, .readOnly).albums
        // Counting from the end needs the count; a read-only race with a writer only shifts the window.
        let start = offset >= 0 ? offset : max(0, try albums.count() + offset)
        try AlbumPrinter.printList(of: albums, offset: start, limit: limit ?? .max, format: format, wide: wide)
    }
}
