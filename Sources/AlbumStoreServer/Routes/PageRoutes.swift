import FoundationEssentials
import Hummingbird

/// The page: its three files, from the binary (or from `pageFolder`, for page development), and
/// nothing else: no request path reaches the file system.
struct PageRoutes {
    let configuration: ServerConfiguration

    private struct File {
        var name: String
        var type: String
        var embedded: [UInt8]
    }

    private static let index = File(name: "index.html", type: "text/html; charset=utf-8", embedded: PackageResources.index_html)
    private static let style = File(name: "app.css", type: "text/css; charset=utf-8", embedded: PackageResources.app_css)
    private static let script = File(name: "app.js", type: "text/javascript; charset=utf-8", embedded: PackageResources.app_js)

    func add(to router: Router<some RequestContext>) {
        router.get("/") { request, _ in try self.indexPage(request) }
        router.get("/app.css") { _, _ in try self.serve(Self.style) }
        router.get("/app.js") { _, _ in try self.serve(Self.script) }
    }

    private func bytes(of file: File) throws -> [UInt8] {
        guard let folder = configuration.pageFolder else { return file.embedded }
        guard let data = FileManager.default.contents(atPath: folder + "/" + file.name) else {
            throw APIError(.internalServerError, "cannot read \(folder)/\(file.name)")
        }
        return Array(data)
    }

    private func serve(_ file: File, replacingToken: Bool = false) throws -> Response {
        var bytes = try bytes(of: file)
        if replacingToken {
            bytes = Array(String(decoding: bytes, as: UTF8.self).replacing("{{TOKEN}}", with: configuration.token).utf8)
        }
        return Response(
            status: .ok, headers: [.contentType: file.type, .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The page, with the token the page's writes send. Off loopback, a visit through the link
    /// printed at start also keeps the token in a cookie, for the page's reads.
    private func indexPage(_ request: Request) throws -> Response {
        var response = try serve(Self.index, replacingToken: true)
        if !configuration.isLoopback, request.uri.queryParameters.get("token") == configuration.token {
            response.headers[.setCookie] = "\(RequestGuard<BasicRequestContext>.tokenCookie)=\(configuration.token); "
                + "Path=/; HttpOnly; SameSite=Strict"
        }
        return response
    }
}
