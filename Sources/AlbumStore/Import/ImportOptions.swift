/// How an import maps, checks and writes what it reads (`Library.importAlbums`).
public struct ImportOptions: Sendable {
    /// What an import does with an album the library (or an earlier row of the file) already has.
    public enum ConflictPolicy: String, Sendable, CaseIterable {
        /// Leave the stored album as it is and count the row as a duplicate (the default).
        case skip
        /// Change the stored album, in place, to the fields the file supplies; fields the file
        /// has no column or key for keep their stored values. The id and position stay.
        case update
        /// Refuse the whole import: nothing changes.
        case fail
    }

    /// What an import does with a row that cannot become an album.
    public enum InvalidRowPolicy: String, Sendable, CaseIterable {
        /// Refuse the whole file, listing every invalid row, and change nothing (the default).
        case rejectFile
        /// Import the valid rows and report (and write to `rejectsPath`) the others.
        case skip
    }

    /// The file's text encoding; `nil` detects it (a BOM, else UTF-8, else a Windows-1252 guess).
    public var encoding: CatalogEncoding?
    /// Source columns or keys mapped to album fields before any name is looked up, by name
    /// ignoring case (`["Disc Title": .title]`).
    public var mapping: [String: AlbumField]
    /// What to do with an album the library or an earlier row already has (default `.skip`).
    public var onConflict: ConflictPolicy
    /// What to do with a row that cannot become an album (default `.rejectFile`).
    public var invalidRows: InvalidRowPolicy
    /// A file to write every rejected row to, with its reasons (CSV: `file`, `line`, `field`,
    /// `reason`, `record`); `nil` writes none. Written whether or not the import is refused.
    public var rejectsPath: String?
    /// Read, check and count everything, and write nothing to the library.
    public var dryRun: Bool
    /// The CSV delimiter (one ASCII character other than `"`, CR and LF: `;`, `|`, a tab); `nil`
    /// uses the format's own (a tab for TSV; for CSV `;` when the header has semicolons and no
    /// comma, else `,`). Given without a format, the file is read as CSV (TSV for a tab).
    public var delimiter: Character?
    /// Whether the first line of a CSV or TSV file names the columns (the default). Without a
    /// header the first line is a row, and the columns are named `1`, `2`, ... for `mapping`.
    public var hasHeader: Bool
    /// Asked now and then (every few thousand rows, and before the import commits): returning
    /// `true` stops the import, which rolls back and throws `CancellationError`. It runs on the
    /// importing thread: keep it quick.
    public var isCancelled: (@Sendable () -> Bool)?
    /// Called now and then (every few thousand rows, and at the end) with how far the import is.
    /// It runs on the importing thread: keep it quick.
    public var progress: (@Sendable (ImportProgress) -> Void)?

    /// From how many estimated rows (the file's size over `AlbumImport.bytesPerRowEstimate`) an
    /// import into a non-empty library sets the indexes aside, when the library holds fewer
    /// albums than that; tests lower it to reach that path with small files.
    var indexesAsideFromRows = 50_000
    /// The size of the duplicate check's key filter (`KeyFilter`) in bytes; `nil` sizes it from
    /// the file (at most `KeyFilter.defaultMaxBytes`). Tests make it tiny to saturate it.
    var keyFilterBytes: Int?

    /// Options with these values; the defaults skip duplicates and refuse a file with an invalid row.
    public init(
        encoding: CatalogEncoding? = nil, mapping: [String: AlbumField] = [:], onConflict: ConflictPolicy = .skip,
        invalidRows: InvalidRowPolicy = .rejectFile, rejectsPath: String? = nil, dryRun: Bool = false,
        progress: (@Sendable (ImportProgress) -> Void)? = nil, delimiter: Character? = nil, hasHeader: Bool = true,
        isCancelled: (@Sendable () -> Bool)? = nil
    ) {
        self.delimiter = delimiter
        self.hasHeader = hasHeader
        self.isCancelled = isCancelled
        self.encoding = encoding
        self.mapping = mapping
        self.onConflict = onConflict
        self.invalidRows = invalidRows
        self.rejectsPath = rejectsPath
        self.dryRun = dryRun
        self.progress = progress
    }
}
