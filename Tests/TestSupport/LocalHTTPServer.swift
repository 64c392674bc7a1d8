import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 (a port the kernel picks), run inside the test process so
/// that the fetch tests never leave the machine. Each connection gets one response, then closes.
public final class LocalHTTPServer: Sendable {
    /// What to answer to one request.
    public struct Response: Sendable {
        public var status = 200
        public var headers: [(String, String)] = []
        public var body = Data()
        /// Written in pieces of this size, with no Content-Length (the body ends at close).
        public var streamedInChunksOf: Int?
        /// Wait before answering at all: for a test of what a slow server does (a timeout, downloads
        /// that overlap), where the wait is the behaviour under test.
        public var delay: Double = 0
        /// Answer only once this many requests have been answered at the same time (or after 10 s):
        /// for a test of downloads that overlap, which then never depends on the machine's speed.
        /// The client's timeout must be longer, or its retries would overlap instead.
        public var heldUntilConcurrent: Int?

        public init(status: Int = 200, headers: [(String, String)] = [], body: Data = Data(), streamedInChunksOf: Int? = nil,
                    delay: Double = 0, heldUntilConcurrent: Int? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.streamedInChunksOf = streamedInChunksOf
            self.delay = delay
            self.heldUntilConcurrent = heldUntilConcurrent
        }
    }

    public let port: UInt16
    private let socket: Int32
    private let handler: @Sendable (_ path: String, _ count: Int) -> Response
    private let counts = Mutex<[String: Int]>([:])
    private let heads = Mutex<[String]>([])
    /// Requests being answered now, and the most there were at once.
    private let inFlight = Mutex((now: 0, most: 0))

    /// Starts serving; `handler` gets the path and how many times it was asked before.
    public init(_ handler: @escaping @Sendable (_ path: String, _ count: Int) -> Response) throws {
        self.handler = handler
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        socket = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = UInt16(bigEndian: address.sin_port)
        let server = self
        Thread.detachNewThread { server.acceptLoop() }
    }

    /// Stops accepting connections (the accept loop holds the server until then).
    public func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }

    /// How many requests `path` got.
    public func requests(to path: String) -> Int { counts.withLock { $0[path] ?? 0 } }

    /// The most requests that were being answered at the same time.
    public var mostConcurrentRequests: Int { inFlight.withLock { $0.most } }

    /// The head (request line and headers) of every request so far, in order of arrival.
    public var requestHeads: [String] { heads.withLock { $0 } }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    private func acceptLoop() {
        while true {
            let client = accept(socket, nil, nil)
            if client < 0 { return }   // the socket was closed
            Thread.detachNewThread { self.serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var request = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while request.range(of: Data("\r\n\r\n".utf8)) == nil {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { return }
            request.append(contentsOf: buffer[0..<count])
        }
        let requestHead = String(decoding: request, as: UTF8.self)
        heads.withLock { $0.append(requestHead) }
        let line = requestHead.split(separator: "\r\n").first ?? ""
        let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let count = counts.withLock { counts in
            defer { counts[path, default: 0] += 1 }
            return counts[path] ?? 0
        }
        inFlight.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
        defer { inFlight.withLock { $0.now -= 1 } }
        let response = handler(path, count)
        if let wanted = response.heldUntilConcurrent {
            let deadline = Date(timeIntervalSinceNow: 10)
            while inFlight.withLock({ $0.most }) < wanted && Date() < deadline { usleep(1_000) }
        }
        if response.delay > 0 { Thread.sleep(forTimeInterval: response.delay) }
        var head = "HTTP/1.1 \(response.status) Status\r\nConnection: close\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        if response.streamedInChunksOf == nil { head += "Content-Length: \(response.body.count)\r\n" }
        guard transmit(client, Data((head + "\r\n").utf8)) else { return }
        let chunk = response.streamedInChunksOf ?? max(1, response.body.count)
        var offset = 0
        while offset < response.body.count {
            let end = min(response.body.count, offset + chunk)
            guard transmit(client, response.body[offset..<end]) else { return }
            offset = end
        }
    }

    /// Writes all of `data`; `false` once the client has gone (MSG_NOSIGNAL: no SIGPIPE then).
    private func transmit(_ client: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return true }
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.send(client, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }
}
