/// What a folder import did (for a dry run: would have done).
public struct FolderImportSummary: Sendable, Hashable {
    /// The folder scanned, as given.
    public var folder: String
    public var dryRun: Bool
    /// Audio files found.
    public var filesFound = 0
    /// Files read because they were new or changed since the last scan.
    public var filesRead = 0
    /// Files known from the last scan that are gone.
    public var filesGone = 0
    public var albumsAdded = 0
    public var albumsUpdated = 0
    public var albumsUnchanged = 0
    /// Covers set from embedded pictures or folder images.
    public var coversSet = 0
    /// Albums a previous scan made whose files are all gone (deleted with `prune`).
    public var albumsGone: [GoneAlbum] = []
    /// Whether `albumsGone` were deleted.
    public var pruned = false
    /// Files with no tags at all, imported under their folder's name.
    public var untaggedFiles = 0
    /// Every file or folder left out or taken in part, in path order.
    public var problems: [FolderProblem] = []
    /// The albums the folder makes (each one, changed or not), in list order of their first track.
    public var albums: [ScannedAlbum] = []

    public init(folder: String, dryRun: Bool) {
        self.folder = folder
        self.dryRun = dryRun
    }

    /// Of `problems`, the files and folders left out.
    public var skipped: Int { problems.filter(\.isSkipped).count }

    /// An album whose files are all gone.
    public struct GoneAlbum: Sendable, Hashable {
        public var id: Int64
        public var title: String
        public var artist: String
    }
}

/// An album as a music folder makes it, and why its tracks were grouped so.
public struct ScannedAlbum: Sendable, Hashable {
    /// The album's id in the library (`nil` in a dry run's new albums).
    public var id: Int64?
    public var title: String
    public var artist: String
    public var year: Int?
    public var genre: String?
    public var trackCount: Int
    public var discCount: Int
    /// The total length of the tracks, in milliseconds.
    public var durationMS: Int64
    public var musicBrainzReleaseID: String?
    public var musicBrainzReleaseGroupID: String?
    /// The folder holding the album's tracks (bytes that are not UTF-8 shown as `\xNN`).
    public var folder: String
    /// Why the tracks are one album, in words ("album artist and title; 2 discs in subfolders CD1, CD2").
    public var grouping: String
    /// Where the cover comes from: "embedded", "folder image NAME", or `nil` for none.
    public var coverSource: String?
    /// What the scan did to the album.
    public var change: Change

    public enum Change: String, Sendable, Hashable {
        case added, updated, unchanged
    }
}
