import FoundationEssentials

/// How far a folder scan is: files read of those new or changed.
public struct FolderScanProgress: Sendable, Hashable {
    /// Audio files found in the folder.
    public var filesFound: Int
    /// Files new or changed since the last scan: those to read.
    public var filesToRead: Int
    /// Of `filesToRead`, those read so far.
    public var filesRead: Int
    /// Seconds since the reading began.
    public var elapsed: Double

    public init(filesFound: Int, filesToRead: Int, filesRead: Int, elapsed: Double) {
        self.filesFound = filesFound
        self.filesToRead = filesToRead
        self.filesRead = filesRead
        self.elapsed = elapsed
    }

    /// Files read per second so far.
    public var filesPerSecond: Double { elapsed > 0 ? Double(filesRead) / elapsed : 0 }

    /// Seconds left at the rate so far, when it is known.
    public var secondsLeft: Double? {
        filesPerSecond > 0 ? Double(filesToRead - filesRead) / filesPerSecond : nil
    }

    static var processorCount: Int { ProcessInfo.processInfo.activeProcessorCount }
}
