/// The image formats a cover may be in, as sniffed from its first bytes.
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// A PNG, JPEG, GIF or WebP image, as its first bytes (its signature) show.
    case png, jpeg, gif, webp

    /// The MIME type, e.g. `image/png`.
    public var mimeType: String { "image/\(rawValue)" }

    /// The format's name for people: `PNG`, `JPEG`, `GIF`, `WebP`.
    public var name: String { self == .webp ? "WebP" : rawValue.uppercased() }

    /// The usual file name extension, without the dot.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
}
