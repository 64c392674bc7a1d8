/// Totals of the cover store: images, bytes, and what sharing identical images saved.
public struct CoverStats: Sendable, Hashable, Codable {
    /// Distinct images stored.
    public let imageCount: Int
    /// Their bytes, each image counted once.
    public let totalBytes: Int
    /// Albums with a cover.
    public let albumsWithCover: Int
    /// Albums without a cover.
    public let albumsWithoutCover: Int
    /// What storing one copy per album would have taken more: the saving of deduplication.
    public let bytesSavedByDeduplication: Int
}

/// What `collectGarbage()` removed.
public struct CoverGarbageReport: Sendable, Hashable, Codable {
    /// How many images were deleted.
    public let imagesRemoved: Int
    /// Their bytes, in all.
    public let bytesFreed: Int
}
