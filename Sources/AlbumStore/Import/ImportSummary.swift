/// What an import did (or, for a dry run or a refused import, would have done).
public struct ImportSummary: Sendable, Hashable {
    /// The source's name (`ImportSource.displayName`).
    public var file: String
    /// The catalog format read, given or detected.
    public var format: CatalogFormat
    /// The text encoding read, given, detected or guessed (see `encodingWasGuessed`).
    public var encoding: CatalogEncoding
    /// Whether `encoding` was guessed (Windows-1252 for bytes that are not UTF-8) rather than
    /// given, marked by a BOM, or valid UTF-8.
    public var encodingWasGuessed: Bool
    /// The first `ImportSummary.rejectionsKept` lines of a UTF-8 file that were not UTF-8 and were
    /// read as Windows-1252, each alone (the rest of the file stays UTF-8); see
    /// `windows1252LineCount` for all of them. Empty when the encoding was given, marked by a BOM,
    /// or guessed for the whole file.
    public var windows1252Lines: [Int] = []
    /// How many lines were read as Windows-1252 in a file otherwise UTF-8.
    public var windows1252LineCount = 0
    /// The CSV delimiter, when not the format's own (a `;` found in the header, or given).
    public var delimiter: Character?
    /// Whether this was a dry run: the library was not changed.
    public var dryRun: Bool
    /// Rows read, valid or not.
    public var rows: Int = 0
    /// New albums added (for a dry run: that would be added).
    public var inserted: Int = 0
    /// Albums changed in place (under `ImportOptions.ConflictPolicy.update`).
    public var updated: Int = 0
    /// Rows left out because the library or an earlier row already has the album (under
    /// `update`, also those whose fields were already as stored).
    public var skippedDuplicates: Int = 0
    /// Of `skippedDuplicates`, those that repeated an earlier row of the same file.
    public var duplicatesWithinFile: Int = 0
    /// Rows that could not become albums.
    public var rejected: Int = 0
    /// Entries the reader left out as not music (Library.xml: videos, podcasts, ...), by kind.
    public var skippedNotMusic: [String: Int] = [:]
    /// Source columns or keys that map to no album field, each once, in the order first met.
    public var ignoredColumns: [String] = []
    /// The first `ImportSummary.rejectionsKept` rejections, in file order.
    public var rejections: [ImportRejection] = []

    /// How many rejections a summary or error carries (all go to the rejects file).
    public static let rejectionsKept = 20

    /// An empty summary (all counts 0) of an import of `file`.
    public init(file: String, format: CatalogFormat, encoding: CatalogEncoding, encodingWasGuessed: Bool, dryRun: Bool) {
        self.file = file
        self.format = format
        self.encoding = encoding
        self.encodingWasGuessed = encodingWasGuessed
        self.dryRun = dryRun
    }

    /// Every entry left out as not music, whatever its kind.
    public var skippedNotMusicTotal: Int { skippedNotMusic.values.reduce(0, +) }
}
