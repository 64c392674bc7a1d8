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
            if let kind = NotACatalog.kind(of: input.signature) {
                throw CatalogError(line: 0, reason: "is \(kind), not a catalog: CSV, TSV, JSON, NDJSON, a Discogs export or Library.xml")
            }
            let separator = try options.delimiter.map(Self.separator(of:))
            detected = format ?? (separator.map { $0 == 0x09 ? CatalogFormat.tsv : .csv }
                ?? CatalogFormat.detect(fileName: fileName, head: input.head))
            if detected != .csv && detected != .tsv && (separator != nil || !options.hasHeader) {
                throw CatalogError(line: 0, reason: "is read as \(detected.rawValue): a delimiter or a file without a header "
                    + "applies to CSV and TSV only")
            }
            reader = try detected.reader(over: input, separator: separator, hasHeader: options.hasHeader)
        } catch let error as CatalogError {
            throw unreadable(error)
        }
        if detected == .csv || detected == .tsv { try Self.refuseMissingFields(of: reader.columns, file: file, options: options) }
        let rejects = try options.rejectsPath.map { try RejectsFile(path: $0) }
        var start = ImportSummary(
            file: file, format: detected, encoding: input.encoding, encodingWasGuessed: input.encodingWasGuessed,
            dryRun: options.dryRun)
        start.windows1252Lines = input.windows1252Lines.first(ImportSummary.rejectionsKept)
        start.windows1252LineCount = input.windows1252Lines.count
        if let separator = (reader as? CSVReader)?.separator, separator != (detected == .tsv ? 0x09 : UInt8(ascii: ",")) {
            start.delimiter = Character(Unicode.Scalar(separator))
        }
        // SQLite's default page cache (2 MiB) is kept: with the indexes of an empty library set
        // aside (DeferredIndexes) a larger one measured no faster here, and costs its size in memory.
        let summary = try performImport { connection in
            let run = try AlbumImport(
                summary: start, options: options, rejects: rejects, totalBytes: input.totalBytes, in: connection)
            let ids = try BulkInsert.run(into: .albums, in: connection) { bulk in
                try run.run(&reader, totalBytes: input.totalBytes, through: bulk)
                return run.ids
            }
            // JSON names its fields in each object: that none maps to title or artist shows only
            // once every object is read (and every row was rejected for it).
            if detected == .json || detected == .ndjson {
                try Self.refuseMissingFields(of: reader.columns, file: file, options: options)
            }
            let summary = run.summary
            // A dry run and a refused import end the same way: rolled back, as if never begun.
            if options.dryRun || run.isRefused { throw RollingBack(result: summary) }
            return (summary, ids, try run.updates(), Self.historyDescription(of: summary))
        }
        if options.invalidRows == .rejectFile && summary.rejected > 0 { throw ImportError.invalidRows(summary) }
        return summary
    }

    /// The byte of a delimiter: one ASCII character that can separate fields.
    private static func separator(of delimiter: Character) throws(CatalogError) -> UInt8 {
        guard let byte = delimiter.asciiValue, byte != UInt8(ascii: "\""), byte != 0x0A, byte != 0x0D, byte != 0 else {
            throw CatalogError(line: 0, reason: "cannot be read with the delimiter \(delimiter.debugDescription): "
                + "a delimiter is one ASCII character other than a quote or a line break")
        }
        return byte
    }

    /// Refuses a header from which title or artist would be missing in every row, before any row
    /// is read: every row would be rejected for it, and none would say why. An empty file, with
    /// no header, has no rows to misread.
    private static func refuseMissingFields(of columns: [String], file: String, options: ImportOptions) throws {
        guard !columns.isEmpty else { return }
        var mapping = ColumnMapping(mapping: options.mapping)
        mapping.update(to: columns)
        let mapped = Set(mapping.targets.compactMap { $0?.field })
        let missing = [AlbumField.title, .artist].filter { !mapped.contains($0) }
        guard !missing.isEmpty else { return }
        throw ImportError.missingFields(file: file, fields: missing, columns: columns, unmapped: mapping.unknown)
    }

    /// "import catalog.csv: 12 added, 3 updated", for the history.
    private static func historyDescription(of summary: ImportSummary) -> String {
        let name = URL(fileURLWithPath: summary.file).lastPathComponent
        var parts = ["\(summary.inserted) added"]
        if summary.updated > 0 { parts.append("\(summary.updated) updated") }
        return "import \(summary.file == "-" ? "from standard input" : name): " + parts.joined(separator: ", ")
    }
}
