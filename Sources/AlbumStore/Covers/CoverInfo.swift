import FoundationEssentials

/// What the store knows of an album's cover, without its bytes.
public struct CoverInfo: Sendable, Hashable, Codable {
    /// The album the cover belongs to.
    public let albumID: Int64
    /// The SHA-256 of the bytes, in lowercase hexadecimal.
    public let sha256: String
    /// The image's format, read from its bytes.
    public let format: ImageFormat
    /// The image's width in pixels, from its header.
    public let width: Int
    /// The image's height in pixels, from its header.
    public let height: Int
    /// The image's size in bytes.
    public let byteCount: Int
}
