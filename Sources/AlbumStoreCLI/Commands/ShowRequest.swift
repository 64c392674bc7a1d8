import AlbumStore

/// What an `albumstore show` line asks, as plain values, however it was read: by ArgumentParser
/// (`Show.request`) or by `FastPath` (see `QueryRequest`).
struct ShowRequest: Equatable {
    var db: String?
    var verbose = false
    var id: Int64
    var format = OutputFormat.table
    var wide = false

    func run() throws {
        let albums = try StoreOptions.openLibrary(db: db, .readOnly).albums
        guard let album = try albums.album(id: id) else { throw AlbumError.notFound(id: id) }
        let index = try albums.index(of: id)
        guard format == .table else { return try AlbumPrinter.print([(index, album)], format: format, wide: wide) }
        // A line per field, labelled; no heading, the labels say it all.
        let rows = AlbumField.allCases.map { [$0.label, $0.text(in: album, index: index) ?? ""] }
        try TablePrinter.print(
            heading: ["Field", "Value"], printsHeading: false, rows: rows, fit: FormatOptions.tableFit(wide: wide))
    }
}
