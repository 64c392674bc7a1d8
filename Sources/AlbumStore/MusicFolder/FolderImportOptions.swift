import FoundationEssentials

/// How `Library.importFolder(_:options:)` scans a music folder.
public struct FolderImportOptions: Sendable {
    /// Read and group everything and say what would be done, without changing the library.
    public var dryRun: Bool
    /// Delete the albums a previous scan of this folder made whose files are all gone (undoable);
    /// without it they are only reported.
    public var prune: Bool
    /// Where new albums go: this 0-based index of the list (clamped to its end); `nil` appends.
    public var index: Int?
    /// Write every file left out or taken in part, with its reason, to this CSV file.
    public var rejectsPath: String?
    /// How many files are read at once (at least 1); by default, one per processor.
    public var readers: Int
    /// Called as files are read, from any thread.
    public var progress: (@Sendable (FolderScanProgress) -> Void)?
    /// Called, from any thread, as each album folder's new or changed files have all been read:
    /// how a scan shows its albums live (the album browser does), long before its commit.
    public var albumFound: (@Sendable (FoundAlbum) -> Void)?
    /// Asked between files; returning `true` stops the scan with `CancellationError`, and nothing
    /// is imported.
    public var isCancelled: (@Sendable () -> Bool)?

    public init(
        dryRun: Bool = false, prune: Bool = false, index: Int? = nil, rejectsPath: String? = nil,
        readers: Int? = nil, progress: (@Sendable (FolderScanProgress) -> Void)? = nil,
        albumFound: (@Sendable (FoundAlbum) -> Void)? = nil,
        isCancelled: (@Sendable () -> Bool)? = nil
    ) {
        self.dryRun = dryRun
        self.prune = prune
        self.index = index
        self.rejectsPath = rejectsPath
        self.readers = max(1, readers ?? FolderScanProgress.processorCount)
        self.progress = progress
        self.albumFound = albumFound
        self.isCancelled = isCancelled
    }
}
