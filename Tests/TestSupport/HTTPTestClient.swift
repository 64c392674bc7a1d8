import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix

/// An HTTP/1.1 client for the tests of a live server, on swift-nio (which the server is built on,
/// so the tests build no HTTP client or TLS stack of their own): one connection per request, any
/// Host header (`authority`, for the server's Host check), the body whole or as it comes. A
/// request without a complete answer within `timeout` fails.
public struct HTTPTestClient: Sendable {
    public let host: String
    public let port: Int
    public let timeout: TimeAmount

    public init(host: String = "127.0.0.1", port: Int, timeout: TimeAmount = .seconds(20)) {
        self.host = host
        self.port = port
        self.timeout = timeout
    }

    /// Sends one request and reads the whole answer. `authority` is the Host header (by default
    /// the address connected to).
    public func execute(
        uri: String, method: HTTPRequest.Method = .get, authority: String? = nil, headers: HTTPFields = [:], body: ByteBuffer? = nil
    ) async throws -> HTTPTestResponse {
        var whole = ByteBuffer()
        let head = try await send(uri: uri, method: method, authority: authority, headers: headers, body: body) { part in
            whole.writeImmutableBuffer(part)
            return false
        }
        return HTTPTestResponse(head: head, body: whole)
    }

    /// Sends one request and hands each part of the answer's body to `part` as it comes, until
    /// `part` returns true or the body ends; returns the answer's head.
    @discardableResult
    public func send(
        uri: String, method: HTTPRequest.Method = .get, authority: String? = nil, headers: HTTPFields = [:], body: ByteBuffer? = nil,
        _ part: (ByteBuffer) throws -> Bool
    ) async throws -> HTTPResponse {
        let connection = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPClientCodec())
                    return try NIOAsyncChannel<HTTPResponsePart, HTTPRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        let channel = connection.channel
        let deadline = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        defer { deadline.cancel() }
        return try await connection.executeThenClose { inbound, outbound in
            var fields = headers
            if method != .get, method != .head, fields[.contentLength] == nil {
                fields[.contentLength] = String(body?.readableBytes ?? 0)
            }
            let hostName = host.contains(":") ? "[\(host)]" : host
            let request = HTTPRequest(
                method: method, scheme: "http", authority: authority ?? "\(hostName):\(port)", path: uri, headerFields: fields)
            try await outbound.write(.head(request))
            if let body { try await outbound.write(.body(body)) }
            try await outbound.write(.end(nil))
            var head: HTTPResponse?
            for try await answer in inbound {
                switch answer {
                case .head(let response) where response.status.kind != .informational:
                    head = response
                case .head:
                    continue
                case .body(let buffer):
                    if try part(buffer), let head { return head }
                case .end:
                    if let head { return head }
                }
            }
            throw HTTPTestClientError(description: "\(method) \(uri): the connection closed before a whole answer (or after \(timeout))")
        }
    }
}

/// An answer read whole.
public struct HTTPTestResponse: Sendable {
    public let head: HTTPResponse
    public let body: ByteBuffer

    public var status: HTTPResponse.Status { head.status }
    public var headers: HTTPFields { head.headerFields }
}

public struct HTTPTestClientError: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}
