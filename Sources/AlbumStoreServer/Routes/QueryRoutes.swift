import AlbumStore
import Hummingbird

/// The query language over HTTP: the albums a query matches, and their stats (`top`: how many
/// genres and artists the tops list).
struct QueryRoutes {
    let library: Library

    func add(to router: Router<some RequestContext>) {
        router.get("/api/query") { request, _ in try await self.query(request) }
        router.get("/api/stats") { request, _ in try await self.stats(request) }
    }

    /// `q` parsed as `albumstore query` parses its words; empty matches every album.
    private func parsedQuery(_ request: Request) throws -> AlbumQuery {
        try AlbumQuery(parsing: request.uri.queryParameters.get("q") ?? "")
    }

    private func query(_ request: Request) async throws -> Response {
        let query = try parsedQuery(request)
        let paging = try Paging(request)
        let sort = try request.uri.queryParameters.get("sort").map { try AlbumSort(parsing: $0) } ?? .listOrder
        let library = library
        // The count and the page each read every match: on two readers at once, a search of many
        // matches answers in the time of one.
        async let total = library.offCooperativeThreads { try library.albums.count(matching: query) }
        let results = try await library.offCooperativeThreads {
            let albums = try library.albums.albums(matching: query, sortedBy: sort, offset: paging.offset, limit: paging.limit)
            let ids = albums.map(\.id)
            let covers = try library.covers.info(albumIDs: ids), indexes = try library.albums.indexes(of: ids)
            return albums.enumerated().compactMap { place, album in
                indexes[album.id].map { AlbumResource(index: paging.offset + place, album: album, cover: covers[album.id], listIndex: $0) }
            }
        }
        return JSONBody.response(json: try AlbumResource.page(total: try await total, offset: paging.offset, results))
    }

    /// The most genres and artists a page of stats may ask for (`top`).
    static let maximumTop = 100

    private func stats(_ request: Request) async throws -> Response {
        let query = try parsedQuery(request)
        let top = try Paging.number("top", in: request) ?? AlbumStats.topCount
        guard (1...Self.maximumTop).contains(top) else {
            throw APIError(.badRequest, "top: \(top) is not between 1 and \(Self.maximumTop)")
        }
        let library = library
        return try JSONBody.response(try await library.offCooperativeThreads { try library.albums.stats(matching: query, top: top) })
    }
}
