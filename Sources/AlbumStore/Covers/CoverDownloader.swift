internal import AsyncHTTPClient
import FoundationEssentials
internal import NIOCore
internal import NIOHTTP1
internal import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTP(S) downloads of covers through one AsyncHTTPClient, into spool files, the size cap
/// enforced as the bytes arrive: a response that announces or streams more than the cap is
/// stopped at once, so an oversized or endless body costs at most the cap in disk and
/// bandwidth, and memory never grows with it.
///
/// Call `shutdown()` once the last download has ended.
struct CoverDownloader: Sendable {
    private let client: HTTPClient
    /// What a whole transfer may take.
    private let transferTimeout: Duration
    private let limit: Int

    /// Redirects followed before a download fails.
    static let maximumRedirects = 5

    /// `timeout` bounds connecting and each wait for data; a whole transfer gets four times it.
    init(timeout: Duration, limit: Int) {
        let amount = TimeAmount.nanoseconds(Int64(timeout / .nanoseconds(1)))
        var configuration = HTTPClient.Configuration(
            // Cycles are allowed: a server may redirect to the same URL until it is ready; the
            // limit still ends a loop. The client follows http and https only.
            redirectConfiguration: .follow(max: Self.maximumRedirects, allowCycles: true),
            timeout: .init(connect: amount, read: amount)
        )
        // A refused connection is one failure, not retries until the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        // NIO's process-wide event loops: nothing to start or stop per batch.
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        transferTimeout = timeout * 4
        self.limit = limit
    }

    /// Closes the client's connections; no download may start after it.
    func shutdown() async {
        try? await client.shutdown()
    }

    /// Writes the body of `url` to `spool`, or throws a `DownloadError` (or `CoverError.file`
    /// when the spool cannot be opened).
    func fetch(_ url: URL, into spool: CoverSpool) async throws {
        let end = ContinuousClock.now + transferTimeout
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: "albumstore")
        let response: HTTPClientResponse
        do {
            // The deadline covers the redirects and the head; `end` then bounds the body.
            response = try await client.execute(request, timeout: .nanoseconds(Int64(transferTimeout / .nanoseconds(1))))
        } catch {
            throw DownloadError(error)
        }
        if let refusal = refusal(of: response, from: url) { throw refusal }
        let file = try spool.writer()
        let output = file.sink()
        var count = 0
        do {
            for try await chunk in response.body {
                count += chunk.readableBytes
                guard count <= limit else { throw DownloadError.tooLarge(limit: limit) }
                do {
                    try chunk.withUnsafeReadableBytes { try output.write($0) }
                } catch {
                    throw DownloadError.transport("cannot write the download to a temporary file")
                }
                // The read timeout ends a silent server; this ends one that trickles.
                guard ContinuousClock.now <= end else { throw DownloadError.timedOut }
            }
        } catch let error as DownloadError {
            throw error
        } catch {
            throw DownloadError(error)
        }
        do { try output.flush() } catch {
            throw DownloadError.transport("cannot write the download to a temporary file")
        }
    }

    /// Why a response's head already rules it out: a status other than 2xx (a redirect the
    /// client did not follow leads to another scheme), a type that is not an image, or a length
    /// over the cap.
    private func refusal(of response: HTTPClientResponse, from url: URL) -> DownloadError? {
        let status = Int(response.status.code)
        guard (200...299).contains(status) else {
            let target = response.headers.first(name: "Location").flatMap { URL(string: $0, relativeTo: url) }
            if (300...399).contains(status), let scheme = target?.scheme?.lowercased(), scheme != "http", scheme != "https" {
                return .transport("redirected to a URL that is not http or https")
            }
            return .status(status)
        }
        if let type = response.headers.first(name: "Content-Type")?.lowercased(), !type.isEmpty {
            let mime = type.split(separator: ";").first.map { $0.trimmingWhitespace() } ?? type
            // Some servers send images as generic bytes: the sniffer decides then.
            let accepted = mime.hasPrefix("image/") || mime == "application/octet-stream" || mime == "binary/octet-stream"
            if !accepted { return .wrongContentType(mime) }
        }
        if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
            return .tooLarge(limit: limit)
        }
        return nil
    }
}

extension DownloadError {
    /// The failure of a transfer, in words that do not depend on the HTTP client's types.
    fileprivate init(_ error: any Error) {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout, .readTimeout, .deadlineExceeded, .tlsHandshakeTimeout: self = .timedOut
            case .redirectLimitReached: self = .transport("too many redirects (more than \(CoverDownloader.maximumRedirects))")
            case .remoteConnectionClosed: self = .transport("the server closed the connection before the end")
            case .invalidURL, .emptyHost, .emptyScheme: self = .badURL
            default: self = .transport("\(error)")
            }
        case ChannelError.connectTimeout:
            self = .timedOut
        case let error as NIOConnectionError:
            self = error.connectionErrors.isEmpty ? .transport("cannot find the host") : .transport("cannot connect to the host")
        case let error as IOError where [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH].contains(error.errnoCode):
            self = .transport("cannot connect to the host")
        default:
            self = .transport("\(error)")
        }
    }
}
