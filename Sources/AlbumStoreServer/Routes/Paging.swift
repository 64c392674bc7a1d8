import Hummingbird

/// `offset` and `limit` of a request that reads a list: `limit` defaults to 100, at most 500.
struct Paging {
    static let defaultLimit = 100
    static let maximumLimit = 500

    var offset: Int
    var limit: Int

    init(_ request: Request) throws {
        offset = try Self.number("offset", in: request) ?? 0
        limit = try Self.number("limit", in: request) ?? Self.defaultLimit
        guard offset >= 0 else { throw APIError(.badRequest, "offset: \(offset) is negative") }
        guard (1...Self.maximumLimit).contains(limit) else {
            throw APIError(.badRequest, "limit: \(limit) is not between 1 and \(Self.maximumLimit)")
        }
    }

    static func number(_ name: String, in request: Request) throws -> Int? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let number = Int(text) else { throw APIError(.badRequest, "\(name): \"\(text.prefix(40))\" is not a whole number") }
        return number
    }
}

extension Parameters {
    /// The album id in the path. - Throws: `APIError` 400 when it is not a number.
    func albumID() throws -> Int64 {
        let text = get("id") ?? ""
        guard let id = Int64(text) else { throw APIError(.badRequest, "album id: \"\(text.prefix(40))\" is not a number") }
        return id
    }
}
