import FoundationEssentials

/// Requests to MusicBrainz's web service (JSON) and the Cover Art Archive, one at a time: the
/// service's requests paced `EnrichOptions.effectiveInterval` apart, a 503 or 429 retried after
/// its Retry-After (else a doubling wait), redirects followed (the archive answers with 307).
struct MusicBrainzClient {
    private let options: EnrichOptions
    private let musicBrainz: String
    private let coverArt: String
    private let json: HTTPDownloader
    private let images: HTTPDownloader
    private var pacer: RequestPacer
    private(set) var musicBrainzRequests = 0
    private(set) var coverRequests = 0

    /// The most a MusicBrainz answer may weigh.
    static let answerLimit = 4_000_000

    /// - Throws: `EnrichmentError.badURL` when a base URL is not http or https.
    init(options: EnrichOptions) throws {
        self.options = options
        musicBrainz = try Self.base(options.musicBrainzURL, setting: "musicbrainz-url")
        coverArt = try Self.base(options.coverArtURL, setting: "coverart-url")
        json = HTTPDownloader(timeout: options.timeout, limit: Self.answerLimit, expected: .json, userAgent: options.userAgent)
        images = HTTPDownloader(timeout: options.timeout, limit: options.coverSizeLimit, userAgent: options.userAgent)
        pacer = RequestPacer(interval: options.effectiveInterval, clock: options.clock)
    }

    private static func base(_ text: String, setting: String) throws -> String {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false else {
            throw EnrichmentError.badURL(setting: setting, value: text)
        }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// The page of a release on the MusicBrainz server: a proposal's source.
    func page(ofRelease id: String) -> String { "\(musicBrainz)/release/\(id)" }

    /// A release by its id, with its artist credit, release group and genres.
    mutating func release(_ id: String) async throws -> MusicBrainzRelease {
        let answer = try await fetchJSON("\(musicBrainz)/ws/2/release/\(id)?inc=artist-credits+release-groups+genres&fmt=json")
        return try MusicBrainzRelease(answer)
    }

    /// The releases a search for `title` by `artist` finds, best first.
    mutating func searchReleases(title: String, artist: String) async throws -> [MusicBrainzRelease] {
        let query = "release:\(Self.quoted(title)) AND artist:\(Self.quoted(artist))"
        let answer = try await fetchJSON("\(musicBrainz)/ws/2/release?query=\(Self.percentEncoded(query))&limit=10&fmt=json")
        guard let releases = answer["releases"]?.array else {
            throw EnrichmentError.unexpectedAnswer("a search answer without \"releases\"")
        }
        return try releases.map(MusicBrainzRelease.init).sorted { ($0.score ?? 0) > ($1.score ?? 0) }
    }

    /// The front cover of a release, 500 pixels wide, checked as an image; `nil` when the
    /// archive has none (404).
    mutating func frontCover(ofRelease id: String) async throws -> (image: SpooledImage, url: String)? {
        let url = "\(coverArt)/release/\(id)/front-500"
        coverRequests += 1
        let spool = try CoverSpool()
        do {
            try await download(url, with: images, into: spool, paced: false)
            let scan = try CoverScan(.file(spool.url, name: url), limit: options.coverSizeLimit)
            return (SpooledImage(spool: spool, scan: scan), url)
        } catch DownloadError.status(404, _) {
            spool.remove()
            return nil
        } catch let error as DownloadError {
            spool.remove()
            throw EnrichmentError.download(url: url, reason: error.description)
        } catch let error as CoverError {
            spool.remove()
            throw EnrichmentError.download(url: url, reason: "\(error)".replacing("\(url): ", with: ""))
        } catch {
            spool.remove()
            throw error
        }
    }

    private mutating func fetchJSON(_ url: String) async throws -> JSONValue {
        musicBrainzRequests += 1
        let spool = try CoverSpool()
        defer { spool.remove() }
        do { try await download(url, with: json, into: spool, paced: true) } catch let error as DownloadError {
            throw EnrichmentError.download(url: url, reason: error.description)
        }
        let data: Data
        do { data = try Data(contentsOf: spool.url) } catch {
            throw EnrichmentError.download(url: url, reason: "cannot read the answer back from a temporary file")
        }
        do { return try JSONValue(parsing: data) } catch {
            throw EnrichmentError.download(url: url, reason: "\(error)")
        }
    }

    /// One download, retried on 503, 429 and timeouts up to `options.attempts` times.
    /// - Throws: the last attempt's `DownloadError`, or `CancellationError`.
    private mutating func download(_ url: String, with downloader: HTTPDownloader, into spool: CoverSpool, paced: Bool) async throws {
        guard let address = URL(string: url) else { throw DownloadError.badURL }
        var backoff = max(options.effectiveInterval, .seconds(1))
        for attempt in 1... {
            if paced { try await pacer.next() }
            try Task.checkCancellation()
            var failure: (any Error)?
            do { try await downloader.fetch(address, into: spool) } catch { failure = error }
            if paced { pacer.ended() }
            guard let failure else { return }
            guard let error = failure as? DownloadError, error.isRetryable, attempt < options.attempts else { throw failure }
            var wait = backoff
            if case let .status(_, retryAfter?) = error { wait = min(retryAfter, .seconds(300)) }
            try await options.clock.sleep(for: wait)
            backoff *= 2
        }
    }

    /// A phrase for MusicBrainz's search (Lucene): quoted, its quotes and backslashes escaped.
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    /// `text` with every byte but the URL's unreserved characters as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.append(Character(UnicodeScalar(byte)))
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
