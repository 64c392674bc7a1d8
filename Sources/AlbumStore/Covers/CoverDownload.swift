import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One HTTP(S) download of a cover with URLSession, the size cap enforced as the bytes arrive:
/// a response that announces or streams more than the cap is cancelled at once, so an
/// oversized or endless body costs at most the cap in memory and bandwidth.
final class CoverDownload: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var data = Data()
        var failure: DownloadError?
        var continuation: CheckedContinuation<Data, Error>?
    }

    private let limit: Int
    private let state = Mutex(State())

    private init(limit: Int) { self.limit = limit }

    /// The body of `url`, or a `DownloadError`.
    static func fetch(_ url: URL, timeout: Duration, limit: Int) async throws -> Data {
        let download = CoverDownload(limit: limit)
        let configuration = URLSessionConfiguration.ephemeral
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds * 4
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration, delegate: download, delegateQueue: nil)
        // The session holds its delegate until invalidated.
        defer { session.finishTasksAndInvalidate() }
        return try await withCheckedThrowingContinuation { continuation in
            download.state.withLock { $0.continuation = continuation }
            session.dataTask(with: URLRequest(url: url)).resume()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if let failure = Self.refusal(of: response, limit: limit) {
            state.withLock { $0.failure = failure }
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow = state.withLock { state in
            guard state.failure == nil else { return false }
            if state.data.count + data.count > limit {
                state.failure = .tooLarge(limit: limit)
                state.data = Data()
                return true
            }
            state.data.append(data)
            return false
        }
        if overflow { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let (continuation, result) = state.withLock { state -> (CheckedContinuation<Data, Error>?, Result<Data, Error>) in
            let continuation = state.continuation
            state.continuation = nil
            if let failure = state.failure { return (continuation, .failure(failure)) }
            if let error { return (continuation, .failure(Self.downloadError(error))) }
            return (continuation, .success(state.data))
        }
        continuation?.resume(with: result)
    }

    /// Why a response's head already rules it out: a status other than 2xx, a type that is not
    /// an image, or a length over the cap.
    private static func refusal(of response: URLResponse, limit: Int) -> DownloadError? {
        guard let http = response as? HTTPURLResponse else { return nil }
        guard (200...299).contains(http.statusCode) else { return .status(http.statusCode) }
        if let type = http.value(forHTTPHeaderField: "Content-Type")?.lowercased() {
            let mime = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? type
            // Some servers send images as generic bytes: the sniffer decides then.
            let accepted = mime.hasPrefix("image/") || mime == "application/octet-stream" || mime == "binary/octet-stream"
            if !accepted { return .wrongContentType(mime) }
        }
        if http.expectedContentLength > Int64(limit) { return .tooLarge(limit: limit) }
        return nil
    }

    private static func downloadError(_ error: Error) -> DownloadError {
        guard let error = error as? URLError else { return .transport(error.localizedDescription) }
        switch error.code {
        case .timedOut: return .timedOut
        case .cannotConnectToHost: return .transport("cannot connect to the host")
        case .cannotFindHost: return .transport("cannot find the host")
        default: return .transport("network error \(error.code.rawValue)")
        }
    }
}
