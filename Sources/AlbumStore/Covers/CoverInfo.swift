import FoundationEssentials

/// What the store knows of an album's cover, without its bytes.
public struct CoverInfo: Sendable, Hashable, Codable {
    public let albumID: Int64
    /// The SHA-256 of the bytes, in lowercase hexadecimal.
    public let sha256: String
    public let format: ImageFormat
    public let width: Int
    public let height: Int
    public let byteCount: Int
}
