/// Why a cover operation was refused. Nothing was changed.
public enum CoverError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The bytes are not a PNG, JPEG, GIF or WebP image; `source` names where they came from.
    case notAnImage(source: String)
    /// The header claims a pixel size no cover has (`ImageHeader.hasPlausibleSize`).
    case implausibleSize(source: String, width: Int, height: Int)
    /// The bytes start as an image of `format` but lack part of its structure; `reason` says which.
    case incompleteImage(source: String, format: ImageFormat, reason: String)
    /// The image is larger than the size cap.
    case tooLarge(source: String, limit: Int)
    /// The album has no cover.
    case noCover(albumID: Int64)
    /// A file could not be read or written.
    case file(path: String, reason: String)
    /// The source changed while it was being stored (its bytes no longer hash the same).
    case changedWhileReading(source: String)

    /// The refusal in one line, naming the source, file or album.
    public var description: String {
        switch self {
        case let .notAnImage(source):
            "\(source): not a PNG, JPEG, GIF or WebP image"
        case let .implausibleSize(source, width, height):
            "\(source): an image of \(width)×\(height) pixels is past the limits of a cover "
                + "(\(ImageHeader.maximumSide) pixels a side, \(ImageHeader.maximumPixelCount) in all)"
        case let .incompleteImage(source, format, reason):
            "\(source): not a complete \(format.name) image: \(reason)"
        case let .tooLarge(source, limit):
            "\(source): larger than the cover size cap of \(limit) bytes"
        case let .noCover(albumID):
            "album \(albumID) has no cover"
        case let .file(path, reason):
            "\(path): \(reason)"
        case let .changedWhileReading(source):
            "\(source): changed while it was being read; try again"
        }
    }
}
