import FoundationEssentials
internal import AlbumSQLite

extension Library {
    /// Imports the albums of a catalog file (CSV, TSV, JSON, NDJSON, a Discogs export, a
    /// Library.xml) at the end of the list, as one undoable command and one change set for
    /// observers.
    ///
    /// The file is read once, as a stream, in memory that does not grow with its size, inside
    /// one write transaction. Columns or keys map to album fields by name and alias
    /// (`AlbumField(name:)`) after `options.mapping`; `index` and `id` are ignored (ids are the
    /// library's), `created_at` and `updated_at` are kept when given. An album the library or
    /// an earlier row already has (same external id, else same folded artist and title with
    /// matching years) is skipped, updated in place, or refuses the import, as
    /// `options.onConflict` says. `undo()` removes exactly the albums added and restores those
    /// updated.
    ///
    /// - Parameters:
    ///   - source: Where to read the catalog: a file, standard input, or bytes in memory.
    ///   - format: The file's format; `nil` detects it from the name's extension, else the content.
    ///   - options: How to map, check and write the rows (see `ImportOptions`).
    /// - Returns: What was done; for a dry run, what would have been (the library is unchanged).
    /// - Throws: `ImportError.unreadable` (nothing changes), `.invalidRows` when rows are invalid
    ///   and `options.invalidRows` is `.rejectFile` (nothing changes; every invalid row is in the
    ///   rejects file), `.conflict` under `ConflictPolicy.fail` (nothing changes); `StorageError`.
    public func importAlbums(
        from source: ImportSource, format: CatalogFormat? = nil, options: ImportOptions = ImportOptions()
    ) throws -> ImportSummary {
        try refuseIfReadOnly()
        let file = source.displayName
        func unreadable(_ error: CatalogError) -> ImportError {
            .unreadable(file: file, line: error.line, reason: error.reason)
        }
        let input: CatalogInput
        var reader: any CatalogReader
        let detected: CatalogFormat
        do {
            switch source {
            case .file(let path): input = try CatalogInput(path: path, encoding: options.encoding)
            case .standardInput: input = try CatalogInput(standardInputWith: options.encoding)
            case .data(let data, _): input = try CatalogInput(data: data, encoding: options.encoding)
            }
            let fileName: String? = switch source {
            case .file(let path): path
            case .standardInput: nil
            case .data(_, let name): name
            }
            detected = format ?? CatalogFormat.detect(fileName: fileName, head: input.head)
            reader = try detected.reader(over: input)
        } catch let error as CatalogError {
            throw unreadable(error)
        }
        let rejects = try options.rejectsPath.map { try RejectsFile(path: $0) }
        let start = ImportSummary(
            file: file, format: detected, encoding: input.encoding, encodingWasGuessed: input.encodingWasGuessed,
            dryRun: options.dryRun)
        // SQLite's default page cache (2 MiB) is kept: with the indexes of an empty library set
        // aside (DeferredIndexes) a larger one measured no faster here, and costs its size in memory.
        let summary = try performImport { connection in
            let run = try AlbumImport(
                summary: start, options: options, rejects: rejects, totalBytes: input.totalBytes, in: connection)
            let ids = try BulkInsert.run(into: .albums, in: connection) { bulk in
                try run.run(&reader, totalBytes: input.totalBytes, through: bulk)
                return run.ids
            }
            let summary = run.summary
            // A dry run and a refused import end the same way: rolled back, as if never begun.
            if options.dryRun || run.isRefused { throw RollingBack(result: summary) }
            return (summary, ids, try run.updates(), Self.historyDescription(of: summary))
        }
        if options.invalidRows == .rejectFile && summary.rejected > 0 { throw ImportError.invalidRows(summary) }
        return summary
    }

    /// "import catalog.csv: 12 added, 3 updated", for the history.
    private static func historyDescription(of summary: ImportSummary) -> String {
        let name = URL(fileURLWithPath: summary.file).lastPathComponent
        var parts = ["\(summary.inserted) added"]
        if summary.updated > 0 { parts.append("\(summary.updated) updated") }
        return "import \(summary.file == "-" ? "from standard input" : name): " + parts.joined(separator: ", ")
    }
}
