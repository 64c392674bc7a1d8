import AlbumStore
import Hummingbird

/// The ordered list: pages of it, one album, edit, delete and move.
struct AlbumRoutes {
    let library: Library
    let imports: ImportSlot

    func add(to router: Router<some RequestContext>) {
        router.get("/api/library") { _, _ in try await self.summary() }
        router.get("/api/albums") { request, _ in try await self.page(try Paging(request)) }
        router.get("/api/albums/{id}") { _, context in try await self.album(try context.parameters.albumID()) }
        router.patch("/api/albums/{id}") { request, context in
            let id = try context.parameters.albumID()
            return try await self.edit(id, try await JSONBody.decode(AlbumPatch.self, from: request))
        }
        router.delete("/api/albums/{id}") { _, context in try await self.delete(try context.parameters.albumID()) }
        router.post("/api/albums/{id}/move") { request, context in
            let body = try await JSONBody.decode(MoveBody.self, from: request)
            return try await self.move(try context.parameters.albumID(), to: body.index)
        }
    }

    private struct MoveBody: Decodable { var index: Int }

    private func summary() async throws -> Response {
        struct Summary: Encodable {
            var path: String
            var albums: Int
            var canUndo: Bool
            var canRedo: Bool
            var busy: String?
            enum CodingKeys: String, CodingKey { case path, albums, canUndo = "can_undo", canRedo = "can_redo", busy }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(path, forKey: .path)
                try container.encode(albums, forKey: .albums)
                try container.encode(canUndo, forKey: .canUndo)
                try container.encode(canRedo, forKey: .canRedo)
                try container.encode(busy, forKey: .busy)   // `null` when idle, not left out
            }
        }
        let albums = try await library.albums.count()
        let history = try await library.historyEntries()
        return try JSONBody.response(Summary(
            path: library.path, albums: albums,
            canUndo: history.contains { !$0.isUndone }, canRedo: history.contains(where: \.isUndone),
            busy: imports.current?.label))
    }

    private func page(_ paging: Paging) async throws -> Response {
        let library = library
        return JSONBody.response(json: try await library.offCooperativeThreads {
            try AlbumResource.page(
                total: try library.albums.count(), offset: paging.offset,
                AlbumResource.list(library.albums.page(offset: paging.offset, limit: paging.limit), in: library))
        })
    }

    private func album(_ id: Int64) async throws -> Response {
        let library = library
        return JSONBody.response(json: try await library.offCooperativeThreads {
            guard let album = try library.albums.album(id: id) else { throw AlbumError.notFound(id: id) }
            return try AlbumResource.one(album, in: library).json
        })
    }

    private func edit(_ id: Int64, _ patch: AlbumPatch) async throws -> Response {
        let library = library
        return JSONBody.response(json: try await library.offCooperativeThreads {
            try AlbumResource.one(try library.albums.update(id: id, patch.apply), in: library).json
        })
    }

    private func delete(_ id: Int64) async throws -> Response {
        let library = library
        return JSONBody.response(json: try await library.offCooperativeThreads {
            "{\"deleted\":" + (try library.albums.delete(id: id).jsonObject(index: nil)) + "}"
        })
    }

    private func move(_ id: Int64, to index: Int) async throws -> Response {
        let library = library
        return JSONBody.response(json: try await library.offCooperativeThreads {
            try AlbumResource.one(try library.albums.move(id: id, to: index), in: library).json
        })
    }
}
