import HTTPTypes
import Hummingbird

/// Checks every request before a route sees it, and marks every response: the `Host` header
/// must name this server (a page whose DNS name was rebound to 127.0.0.1 is refused), a write
/// must carry the server's token (another site's page cannot read it, so cannot forge a write),
/// and off loopback every request must. Errors from anywhere below become the API's JSON error.
struct RequestGuard<Context: RequestContext>: RouterMiddleware {
    let configuration: ServerConfiguration

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

    private func checkHost(of request: Request) throws {
        guard let host = request.head.authority else {
            throw APIError(.forbidden, "the request has no Host header")
        }
        let allowed = ServerConfiguration.loopbackNames.union([configuration.host])
        guard allowed.contains(Self.hostName(host)) else {
            throw APIError(.forbidden, "the Host header \"\(host.prefix(100))\" does not name this server")
        }
    }

    /// `host` without its port and brackets: `[::1]:8080` is `::1`.
    static func hostName(_ host: String) -> String {
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
            return String(host[host.index(after: host.startIndex)..<end])
        }
        return String(host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
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
