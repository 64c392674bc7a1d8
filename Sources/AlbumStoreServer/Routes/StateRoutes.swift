import AlbumStore
import Hummingbird

/// The page's saved state, through the library's session state: the current album and the
/// order of the page's tabs.
struct StateRoutes {
    let library: Library

    /// The page's tabs, in their default order.
    static let tabs = ["albums", "search", "stats", "history"]

    func add(to router: Router<some RequestContext>) {
        router.get("/api/state") { _, _ in
            JSONBody.response(json: try await self.read { try $0.session.state().json.description })
        }
        router.get("/api/state/current") { _, _ in try await self.current() }
        router.put("/api/state/current") { request, _ in
            let body = try await JSONBody.decode(CurrentBody.self, from: request)
            return try await self.setCurrent(body)
        }
        router.get("/api/state/tabs") { _, _ in try await self.tabs() }
        router.put("/api/state/tabs") { request, _ in
            try await self.setTabs(try await JSONBody.decode(TabsBody.self, from: request).tabs)
        }
    }

    private struct CurrentBody: Decodable {
        var index: Int?
        var id: Int64?
    }

    private struct TabsBody: Decodable { var tabs: [String] }

    private struct Tabs: Encodable {
        var tabs: [String]
        var changed: Bool?
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (Library) throws -> T) async throws -> T {
        let library = library
        return try await library.offCooperativeThreads { try body(library) }
    }

    private func current() async throws -> Response {
        JSONBody.response(json: try await read(Self.current(in:)))
    }

    /// The saved current album read back against the list now (clamped when albums went):
    /// `{"index", "album"}`, both `null` when none is saved or the library is empty.
    private static func current(in library: Library) throws -> String {
        guard let current = try library.session.currentAlbum() else { return "{\"index\":null,\"album\":null}" }
        let album = AlbumResource(index: current.index, album: current.album, cover: try library.covers.info(albumID: current.album.id))
        return "{\"index\":\(current.index),\"album\":\(try album.json)}"
    }

    private func setCurrent(_ body: CurrentBody) async throws -> Response {
        JSONBody.response(json: try await read { library in
            switch (body.index, body.id) {
            case let (index?, nil): try library.session.setCurrentAlbum(at: index)
            case let (nil, id?): try library.session.setCurrentAlbum(id: id)
            default: throw APIError(.badRequest, "the body names the current album by \"index\" or by \"id\" (one of them)")
            }
            return try Self.current(in: library)
        })
    }

    private func tabs() async throws -> Response {
        try JSONBody.response(Tabs(tabs: Self.pageOrder(of: try await read { try $0.session.tabOrder() })))
    }

    /// The page's tabs in `saved` order; tabs it does not name follow in their default order,
    /// and names the page has no tab for are left out.
    static func pageOrder(of saved: [String]) -> [String] {
        let known = saved.filter(tabs.contains)
        return known + tabs.filter { !known.contains($0) }
    }

    private func setTabs(_ order: [String]) async throws -> Response {
        guard order.count == Self.tabs.count, Set(order) == Set(Self.tabs) else {
            throw APIError(.badRequest, "tabs: give each of \(Self.tabs.joined(separator: ", ")) once")
        }
        let changed = try await read { try $0.session.setTabOrder(order) }
        return try JSONBody.response(Tabs(tabs: order, changed: changed))
    }
}
