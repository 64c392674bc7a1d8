import AlbumStore
import Hummingbird

/// Undo, redo and the history they go through.
struct HistoryRoutes {
    let library: Library

    func add(to router: Router<some RequestContext>) {
        router.get("/api/history") { _, _ in try JSONBody.response(try await self.library.historyEntries()) }
        router.post("/api/undo") { _, _ in try await self.step { try $0.undo() } }
        router.post("/api/redo") { _, _ in try await self.step { try $0.redo() } }
    }

    private func step(_ body: @escaping @Sendable (Library) throws -> HistoryEntry) async throws -> Response {
        struct Step: Encodable { var entry: HistoryEntry }
        let library = library
        return try JSONBody.response(Step(entry: try await library.offCooperativeThreads { try body(library) }))
    }
}
