import AlbumStore
import FoundationEssentials
import Hummingbird

/// Cover images: served with their sniffed type and their hash as ETag, set from a request's
/// body, removed.
struct CoverRoutes {
    let library: Library

    func add(to router: Router<some RequestContext>) {
        router.get("/api/covers/{id}") { request, context in try await self.cover(try context.parameters.albumID(), request) }
        router.put("/api/covers/{id}") { request, context in
            let id = try context.parameters.albumID()
            let image = try await JSONBody.collect(request, upTo: CoverRepository.defaultSizeLimit, what: "a cover")
            return try await self.set(id, image.data)
        }
        router.delete("/api/covers/{id}") { _, context in
            let id = try context.parameters.albumID()
            let library = library
            return try JSONBody.response(AlbumCover(try await library.offCooperativeThreads { try library.covers.remove(albumID: id) }))
        }
    }

    private func cover(_ id: Int64, _ request: Request) async throws -> Response {
        let library = library
        let found = try await library.offCooperativeThreads { () -> (CoverInfo, Data)? in
            guard let info = try library.covers.info(albumID: id), let data = try library.covers.data(albumID: id) else {
                return nil
            }
            return (info, data)
        }
        guard let (info, data) = found else {
            let exists = try await library.albums.album(id: id) != nil
            throw APIError(.notFound, exists ? "album \(id) has no cover" : "no album with id \(id)")
        }
        // The hash names the bytes: a browser that has them asks again only to confirm.
        let tag = "\"\(info.sha256)\""
        var headers: HTTPFields = [.eTag: tag, .cacheControl: "private, no-cache"]
        if request.headers[.ifNoneMatch] == tag {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = info.format.mimeType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    private func set(_ id: Int64, _ image: Data) async throws -> Response {
        let library = library
        return try JSONBody.response(AlbumCover(try await library.offCooperativeThreads {
            guard try library.albums.album(id: id) != nil else { throw AlbumError.notFound(id: id) }
            return try library.covers.set(albumID: id, from: .data(image, name: "album \(id)'s cover"))
        }))
    }
}
