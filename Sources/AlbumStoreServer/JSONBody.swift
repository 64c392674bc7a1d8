import FoundationEssentials
import Hummingbird
import NIOCore

/// JSON in and out: responses in the CLI's `--format json` shapes, and request bodies read
/// within a cap.
enum JSONBody {
    /// The largest JSON body a request may send.
    static let sizeLimit = 64 * 1024

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return response(data: try encoder.encode(value), status: status)
    }

    /// A response of JSON text made elsewhere (the library's own JSON values).
    static func response(json text: String, status: HTTPResponse.Status = .ok) -> Response {
        response(data: Data(text.utf8), status: status)
    }

    private static func response(data: Data, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The request's body decoded as `T`. - Throws: `APIError` 413 past `sizeLimit`, 400 when it
    /// is not that JSON.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        try decode(type, from: try await collect(request, upTo: sizeLimit, what: "a JSON body"))
    }

    /// The body decoded as `T`, or `nil` when the request sent none.
    static func decodeIfPresent<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T? {
        let buffer = try await collect(request, upTo: sizeLimit, what: "a JSON body")
        return buffer.readableBytes == 0 ? nil : try decode(type, from: buffer)
    }

    private static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: buffer.data)
        } catch let error as DecodingError {
            throw APIError(.badRequest, "the request body is not the JSON expected: \(describe(error))")
        }
    }

    /// The whole body, refused with 413 past `limit` bytes.
    static func collect(_ request: Request, upTo limit: Int, what: String) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, "\(what) may not exceed \(limit / 1024) KB")
        }
    }

    /// One line for a decoding error: what, and at which key.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case let .keyNotFound(key, _): "\"\(key.stringValue)\" is missing"
        case let .typeMismatch(type, context): "\(path(context)) is not \(type == String.self ? "a string" : "of the right type")"
        case let .valueNotFound(_, context): "\(path(context)) is null"
        case let .dataCorrupted(context): context.codingPath.isEmpty ? "it is not valid JSON" : "\(path(context)) is not valid"
        @unknown default: "it is not valid"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.isEmpty ? "the body" : "\"" + context.codingPath.map(\.stringValue).joined(separator: ".") + "\""
    }
}

extension ByteBuffer {
    /// The readable bytes, copied.
    var data: Data { withUnsafeReadableBytes { Data($0) } }
}
