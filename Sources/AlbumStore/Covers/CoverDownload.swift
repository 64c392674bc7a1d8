internal import CCurl
import Dispatch
import FoundationEssentials

/// One HTTP(S) download of a cover through libcurl (loaded on first use, see CCurl.h) into a
/// spool file, the size cap enforced as the bytes arrive: a response that announces or streams
/// more than the cap is stopped at once, so an oversized or endless body costs at most the cap
/// in disk and bandwidth, and memory never grows with it.
final class CoverDownload {
    private let limit: Int
    private let output: FileDescriptorSink
    private var count = 0
    private var failure: DownloadError?

    private init(limit: Int, output: FileDescriptorSink) {
        self.limit = limit
        self.output = output
    }

    /// Writes the body of `url` to `spool`, or throws a `DownloadError` (or `CoverError.file`
    /// when the spool cannot be written). `timeout` bounds connecting and each wait for data (to
    /// whole seconds: libcurl's granularity); the whole transfer gets four times it.
    static func fetch(_ url: URL, into spool: CoverSpool, timeout: Duration, limit: Int) async throws {
        let milliseconds = max(1, Int(timeout.components.seconds) * 1000 + Int(timeout.components.attoseconds / 1_000_000_000_000_000))
        // libcurl blocks its thread: keep it off Swift's few cooperative threads.
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result {
                    let file = try spool.writer()
                    let output = file.sink()
                    try CoverDownload(limit: limit, output: output).run(url.absoluteString, timeoutMilliseconds: milliseconds)
                    do { try output.flush() } catch {
                        throw DownloadError.transport("cannot write the download to a temporary file")
                    }
                })
            }
        }
    }

    private func run(_ url: String, timeoutMilliseconds: Int) throws {
        var head = ccurl_head()
        var message = [CChar](repeating: 0, count: 256)
        let code = withExtendedLifetime(self) {
            ccurl_get(
                url, timeoutMilliseconds, (timeoutMilliseconds + 999) / 1000, timeoutMilliseconds * 4,
                Unmanaged.passUnretained(self).toOpaque(),
                { context, head in
                    let download = Unmanaged<CoverDownload>.fromOpaque(context!).takeUnretainedValue()
                    download.failure = head.flatMap { CoverDownload.refusal(of: $0.pointee, limit: download.limit) }
                    return download.failure == nil ? 0 : 1
                },
                { context, bytes, count in
                    let download = Unmanaged<CoverDownload>.fromOpaque(context!).takeUnretainedValue()
                    guard download.count + count <= download.limit else {
                        download.failure = .tooLarge(limit: download.limit)
                        return 1
                    }
                    guard let bytes else { return 0 }
                    do {
                        try download.output.write(UnsafeRawBufferPointer(start: bytes, count: count))
                    } catch {
                        download.failure = .transport("cannot write the download to a temporary file")
                        return 1
                    }
                    download.count += count
                    return 0
                },
                &head, &message, message.count)
        }
        if let failure { throw failure }
        switch code {
        case 0:
            if let refusal = Self.refusal(of: head, limit: limit) { throw refusal }
        // The first URL's scheme was checked before: only a redirect leads to another.
        case 1: throw DownloadError.transport("redirected to a URL that is not http or https")
        case 6: throw DownloadError.transport("cannot find the host")
        case 7: throw DownloadError.transport("cannot connect to the host")
        case 28: throw DownloadError.timedOut
        case 47: throw DownloadError.transport("too many redirects (more than 5)")
        default: throw DownloadError.transport(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }

    /// Why a response's head already rules it out: a status other than 2xx, a type that is not
    /// an image, or a length over the cap.
    private static func refusal(of head: ccurl_head, limit: Int) -> DownloadError? {
        guard (200...299).contains(head.status) else { return .status(head.status) }
        let type = withUnsafeBytes(of: head.content_type) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self).lowercased()
        }
        if !type.isEmpty {
            let mime = type.split(separator: ";").first.map { $0.trimmingWhitespace() } ?? type
            // Some servers send images as generic bytes: the sniffer decides then.
            let accepted = mime.hasPrefix("image/") || mime == "application/octet-stream" || mime == "binary/octet-stream"
            if !accepted { return .wrongContentType(mime) }
        }
        if head.content_length > Int64(limit) { return .tooLarge(limit: limit) }
        return nil
    }
}
