/// Why one download attempt failed; `isRetryable` says whether another attempt may succeed.
enum DownloadError: Error, CustomStringConvertible, Equatable {
    /// Not an http or https URL (`file:`, `ftp:`, `data:`, a bare path): never opened.
    case notHTTP
    case badURL
    case status(Int)
    case timedOut
    case tooLarge(limit: Int)
    case wrongContentType(String)
    case transport(String)

    /// Timeouts and server errors (5xx) are worth another try; a 404 or a wrong type is not.
    var isRetryable: Bool {
        switch self {
        case .timedOut: true
        case let .status(code): (500...599).contains(code)
        default: false
        }
    }

    var description: String {
        switch self {
        case .notHTTP: "refused: only http and https URLs are downloaded"
        case .badURL: "not a valid URL"
        case let .status(code): "HTTP status \(code)"
        case .timedOut: "timed out"
        case let .tooLarge(limit): "larger than the cover size cap of \(limit) bytes"
        case let .wrongContentType(type): "content type \(type) is not an image"
        case let .transport(reason): reason
        }
    }
}
