import HTTPTypes
import Hummingbird
import Synchronization

/// Checks every request before a route sees it, and marks every response: on loopback the `Host`
/// header must name this server, port included (a page whose DNS name was rebound to 127.0.0.1
/// is refused), a write
/// must carry the server's token (another site's page cannot read it, so cannot forge a write),
/// and off loopback every request must. Errors from anywhere below become the API's JSON error.
struct RequestGuard<Context: RequestContext>: RouterMiddleware {
    let configuration: ServerConfiguration
    /// The port the server listens on (the configuration's may be 0: any free one).
    let boundPort: BoundPort

    static var tokenHeader: HTTPField.Name { HTTPField.Name("X-AlbumStore-Token")! }
    static var tokenCookie: String { "albumstore_token" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            try checkHost(of: request)
            try checkToken(of: request)
            response = try await next(request, context)
        } catch {
            response = APIError.from(error).response
        }
        SecurityHeaders.add(to: &response.headers)
        return response
    }

    /// On loopback, the Host must name this machine's loopback (or the bound address) and this
    /// server's port, exactly (`localhost:8080`, `[::1]:8080`): a page whose DNS name was rebound
    /// to 127.0.0.1 names its own host. Off loopback (`--bind`), the token guards every request,
    /// and the machine may be named by any of its addresses or names: any well-formed Host passes.
    private func checkHost(of request: Request) throws {
        guard let host = request.head.authority else {
            throw APIError(.forbidden, "the request has no Host header")
        }
        let refusal = APIError(.forbidden, "the Host header \"\(host.prefix(100))\" does not name this server")
        guard let (name, port) = Self.parseHost(host) else { throw refusal }
        if !configuration.isLoopback { return }
        let allowed = ServerConfiguration.loopbackNames.union([configuration.host])
        guard allowed.contains(name.lowercased()), port ?? 80 == boundPort.value else { throw refusal }
    }

    /// The name and port of a Host header (`name`, `name:port`, `[v6]`, `[v6]:port`); `nil` for
    /// anything else (text after the brackets, a port that is not a number).
    static func parseHost(_ host: String) -> (name: String, port: Int?)? {
        var name: Substring, rest: Substring
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return nil }
            name = host[host.index(after: host.startIndex)..<end]
            rest = host[host.index(after: end)...]
        } else {
            let parts = host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            name = parts[0]
            rest = parts.count > 1 ? host[host.index(before: parts[1].startIndex)...] : ""
        }
        guard !name.isEmpty else { return nil }
        if rest.isEmpty { return (String(name), nil) }
        let digits = rest.dropFirst()
        guard rest.first == ":", !digits.isEmpty, digits.allSatisfy({ $0 >= "0" && $0 <= "9" }),
              let port = Int(digits), port <= 65535 else { return nil }
        return (String(name), port)
    }

    private func checkToken(of request: Request) throws {
        let isWrite = ![.get, .head].contains(request.method)
        guard isWrite || !configuration.isLoopback else { return }
        if request.headers[Self.tokenHeader] == configuration.token { return }
        // Off loopback, the page and its reads may carry the token as the address's query
        // (the link printed at start) or the cookie set from it; a write never does.
        if !isWrite && (request.uri.queryParameters.get("token") == configuration.token || cookieToken(of: request) == configuration.token) {
            return
        }
        throw APIError(.forbidden, isWrite ? "a write needs the server's token (X-AlbumStore-Token)" : "this server needs its token")
    }

    private func cookieToken(of request: Request) -> String? {
        request.cookies[Self.tokenCookie]?.value
    }
}

/// What every response says, whatever it is.
enum SecurityHeaders {
    static let contentSecurityPolicy = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

    static func add(to headers: inout HTTPFields) {
        headers[.xContentTypeOptions] = "nosniff"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
    }
}

/// The port a server listens on, known once it runs.
final class BoundPort: Sendable {
    private let port: Atomic<Int>

    init(_ port: Int) { self.port = Atomic(port) }

    var value: Int { port.load(ordering: .relaxed) }

    func set(_ value: Int) { port.store(value, ordering: .relaxed) }
}
