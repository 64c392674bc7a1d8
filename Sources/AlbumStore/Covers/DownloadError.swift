/// Why one download attempt failed; `isRetryable` says whether another attempt may succeed.
enum DownloadError: Error, CustomStringConvertible, Equatable {
    /// Not an http or https URL (`file:`, `ftp:`, `data:`, a bare path): never opened.
    case notHTTP
    case badURL
    /// An HTTP status other than 2xx, and the wait its Retry-After header asked for.
    case status(Int, retryAfter: Duration? = nil)
    case timedOut
    case tooLarge(limit: Int)
    case wrongContentType(String, expected: HTTPDownloader.Expected = .image)
    case transport(String)

    /// Timeouts, server errors (5xx) and "too many requests" (429) are worth another try; a 404
    /// or a wrong type is not.
    var isRetryable: Bool {
        switch self {
        case .timedOut: true
        case let .status(code, _): (500...599).contains(code) || code == 429
        default: false
        }
    }

    var description: String {
        switch self {
        case .notHTTP: "refused: only http and https URLs are downloaded"
        case .badURL: "not a valid URL"
        case let .status(code, _): "HTTP status \(code)"
        case .timedOut: "timed out"
        case let .tooLarge(limit): "larger than the cover size cap of \(limit) bytes"
        case let .wrongContentType(type, expected): "content type \(type) is not \(expected == .image ? "an image" : "JSON")"
        case let .transport(reason): reason
        }
    }
}
