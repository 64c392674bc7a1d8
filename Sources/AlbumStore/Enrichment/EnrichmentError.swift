/// Why an enrichment could not start, or why one album's answer was not taken.
public enum EnrichmentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A base URL setting that is not an http or https URL.
    case badURL(setting: String, value: String)
    /// A download failed (status, timeout, wrong type, too large, ...).
    case download(url: String, reason: String)
    /// The answer is not JSON, or not the shape MusicBrainz gives.
    case unexpectedAnswer(String)

    public var description: String {
        switch self {
        case let .badURL(setting, value): "\(setting): \"\(value)\" is not an http or https URL"
        case let .download(url, reason): "\(url): \(reason)"
        case let .unexpectedAnswer(reason): "unexpected answer: \(reason)"
        }
    }
}
