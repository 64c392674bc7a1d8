import Dispatch
import FoundationEssentials
import Synchronization
internal import CCurl

/// HTTP(S) downloads through libcurl, the system's HTTP client (Debian's and macOS's own, with
/// their TLS and their security updates), into spool files: covers, and MusicBrainz's answers.
/// libcurl is loaded at the first download (see `Sources/CCurl/shim.h`); without it, each
/// download fails saying so.
///
/// Each transfer runs on a thread of its own and writes each piece to the spool as libcurl hands
/// it over, so the cap is enforced as the bytes arrive: a response that announces or streams
/// more than the cap is stopped at once, and memory never grows with a body. Bodies are taken as
/// sent, never inflated (a gzip bomb stays its compressed bytes, which are no image).
struct HTTPDownloader: Sendable {
    /// What a download is for, which decides the content types it takes.
    enum Expected: Sendable {
        /// An image; servers that send images as generic bytes are taken too (the sniffer decides).
        case image
        /// A JSON document.
        case json
    }

    /// What connecting, and each wait for data, may take; a whole transfer gets four times it.
    private let timeout: Duration
    private let limit: Int
    private let expected: Expected
    private let userAgent: String

    /// The User-Agent sent when none is given.
    static let defaultUserAgent = "albumstore/\(Library.version)"

    /// Redirects followed before a download fails.
    static let maximumRedirects = 5

    /// libcurl's functions, loaded and set up once, at the first transfer; `nil` when the system
    /// has no libcurl. Written once, by Swift's lazy global initialisation, and only read after.
    nonisolated(unsafe) fileprivate static let curl: UnsafePointer<albumstore_curl>? = {
        let api = UnsafeMutablePointer<albumstore_curl>.allocate(capacity: 1)
        api.initialize(to: albumstore_curl())
        guard albumstore_curl_load(api) == 1 else {
            api.deallocate()
            return nil
        }
        return UnsafePointer(api)   // kept for the life of the process
    }()

    init(timeout: Duration, limit: Int, expected: Expected = .image, userAgent: String = defaultUserAgent) {
        self.timeout = timeout
        self.limit = limit
        self.expected = expected
        self.userAgent = userAgent
    }

    /// Writes the body of `url` to `spool`, or throws a `DownloadError` (or `CoverError.file`
    /// when the spool cannot be opened); cancelling the calling task stops the transfer.
    func fetch(_ url: URL, into spool: CoverSpool) async throws {
        let transfer = Transfer(
            url: url, file: try spool.writer(), timeout: timeout, limit: limit, expected: expected, userAgent: userAgent)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                DispatchQueue.global(qos: .userInitiated).async {
                    continuation.resume(with: Result { try transfer.run() })
                }
            }
        } onCancel: {
            transfer.cancel()
        }
    }

    /// One download: its handle's settings, what arrived, and why it was stopped.
    private final class Transfer: @unchecked Sendable {
        private let url: URL
        private let output: FileDescriptorSink
        private let timeout: Duration
        private let limit: Int
        private let expected: Expected
        private let userAgent: String
        private let isCancelled = Atomic(false)
        // Touched only by the thread in `run` and libcurl's callbacks on it.
        private var handle: UnsafeMutableRawPointer?
        private var api: UnsafePointer<albumstore_curl>?
        private var count = 0
        private var headChecked = false
        private var failure: DownloadError?

        init(url: URL, file: OpenFile, timeout: Duration, limit: Int, expected: Expected, userAgent: String) {
            self.url = url
            output = file.sink()
            self.timeout = timeout
            self.limit = limit
            self.expected = expected
            self.userAgent = userAgent
        }

        func cancel() { isCancelled.store(true, ordering: .relaxed) }

        func run() throws {
            guard let api = HTTPDownloader.curl else {
                throw DownloadError.transport("no libcurl on this system (Debian: apt install libcurl4)")
            }
            guard let curl = api.pointee.easy_init() else { throw DownloadError.transport("libcurl cannot start a transfer") }
            self.api = api
            handle = curl
            defer { api.pointee.easy_cleanup(curl) }
            configure(curl, api)
            let code = api.pointee.easy_perform(curl)
            if let failure { throw failure }
            if code == CURLE_ABORTED_BY_CALLBACK { throw CancellationError() }
            // The announced length was over the cap (`CURLOPT_MAXFILESIZE_LARGE`).
            if code == CURLE_FILESIZE_EXCEEDED { throw DownloadError.tooLarge(limit: limit) }
            guard code == CURLE_OK else {
                throw DownloadError(code, reason: api.pointee.easy_strerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)")
            }
            // A body that never came (a 404 or an empty 200) is checked now.
            if let refusal = checkHead() { throw refusal }
            do { try output.flush() } catch {
                throw DownloadError.transport("cannot write the download to a temporary file")
            }
        }

        private func configure(_ curl: UnsafeMutableRawPointer, _ api: UnsafePointer<albumstore_curl>) {
            let milliseconds = Int(timeout / .milliseconds(1))
            _ = albumstore_curl_set_string(api, curl, CURLOPT_URL, url.absoluteString)
            _ = albumstore_curl_set_string(api, curl, CURLOPT_USERAGENT, userAgent)
            _ = albumstore_curl_set_string(api, curl, CURLOPT_PROTOCOLS_STR, "http,https")
            // Redirects: http and https only, at most five. A redirect to the same URL is
            // followed too (a server may do that until it is ready): the limit ends a loop.
            _ = albumstore_curl_set_long(api, curl, CURLOPT_FOLLOWLOCATION, 1)
            _ = albumstore_curl_set_long(api, curl, CURLOPT_MAXREDIRS, HTTPDownloader.maximumRedirects)
            _ = albumstore_curl_set_string(api, curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
            // Connecting, and any stretch without a byte, may take `timeout`; the whole four
            // times it, which ends a server that trickles.
            _ = albumstore_curl_set_long(api, curl, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
            _ = albumstore_curl_set_long(api, curl, CURLOPT_LOW_SPEED_LIMIT, 1)
            _ = albumstore_curl_set_long(api, curl, CURLOPT_LOW_SPEED_TIME, max(1, (milliseconds + 999) / 1000))
            _ = albumstore_curl_set_long(api, curl, CURLOPT_TIMEOUT_MS, 4 * milliseconds)
            _ = albumstore_curl_set_offset(api, curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
            // No signals from another thread's transfer; no proxy but the environment's.
            _ = albumstore_curl_set_long(api, curl, CURLOPT_NOSIGNAL, 1)
            let context = Unmanaged.passUnretained(self).toOpaque()
            _ = albumstore_curl_set_pointer(api, curl, CURLOPT_WRITEDATA, context)
            _ = albumstore_curl_set_data_callback(api, curl, CURLOPT_WRITEFUNCTION) { bytes, size, count, context in
                guard let bytes, let context else { return 0 }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.receive(UnsafeRawBufferPointer(start: bytes, count: size * count)) ? size * count : 0
            }
            _ = albumstore_curl_set_long(api, curl, CURLOPT_NOPROGRESS, 0)
            _ = albumstore_curl_set_pointer(api, curl, CURLOPT_XFERINFODATA, context)
            _ = albumstore_curl_set_progress_callback(api, curl) { context, _, _, _, _ in
                guard let context else { return 0 }
                return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().isCancelled.load(ordering: .relaxed) ? 1 : 0
            }
        }

        /// Takes a piece of the final response's body; `false` stops the transfer.
        private func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
            if let refusal = checkHead() {
                failure = refusal
                return false
            }
            count += bytes.count
            guard count <= limit else {
                failure = .tooLarge(limit: limit)
                return false
            }
            do { try output.write(bytes) } catch {
                failure = .transport("cannot write the download to a temporary file")
                return false
            }
            return true
        }

        /// Why the final response's head rules it out, checked once: a status other than 2xx
        /// (with the seconds of its Retry-After, if any), a type other than the expected, or a
        /// length over the cap.
        private func checkHead() -> DownloadError? {
            guard !headChecked, let handle, let api else { return nil }
            headChecked = true
            let status = albumstore_curl_response_code(api, handle)
            guard (200...299).contains(status) else {
                let seconds = albumstore_curl_retry_after(api, handle)
                return .status(status, retryAfter: seconds > 0 ? .seconds(seconds) : nil)
            }
            if let type = albumstore_curl_content_type(api, handle).map({ String(cString: $0).lowercased() }), !type.isEmpty {
                let mime = type.split(separator: ";").first.map { $0.trimmingWhitespace() } ?? type
                let accepted = switch expected {
                // Some servers send images as generic bytes: the sniffer decides then.
                case .image: mime.hasPrefix("image/") || mime == "application/octet-stream" || mime == "binary/octet-stream"
                case .json: mime == "application/json" || mime.hasSuffix("+json")
                }
                if !accepted { return .wrongContentType(mime, expected: expected) }
            } else if expected == .json {
                return .wrongContentType("(none)", expected: expected)
            }
            if albumstore_curl_content_length(api, handle) > limit { return .tooLarge(limit: limit) }
            return nil
        }
    }
}

extension DownloadError {
    /// libcurl's failure of a transfer, in words that do not depend on its codes (`reason`,
    /// libcurl's own words, for the others).
    fileprivate init(_ code: CURLcode, reason: String) {
        switch code {
        case CURLE_OPERATION_TIMEDOUT: self = .timedOut
        case CURLE_COULDNT_RESOLVE_HOST: self = .transport("cannot find the host")
        case CURLE_COULDNT_CONNECT: self = .transport("cannot connect to the host")
        case CURLE_TOO_MANY_REDIRECTS: self = .transport("too many redirects (more than \(HTTPDownloader.maximumRedirects))")
        // The first URL was checked before: only a redirect leads to another scheme.
        case CURLE_UNSUPPORTED_PROTOCOL: self = .transport("redirected to a URL that is not http or https")
        case CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_RECV_ERROR:
            self = .transport("the server closed the connection before the end")
        case CURLE_URL_MALFORMAT: self = .badURL
        default: self = .transport(reason)
        }
    }
}
