import AlbumStore
import Foundation   // removingPercentEncoding (the library links Foundation already)
import Hummingbird

/// Snapshots of the session state: take, list, compare with now, restore.
struct SnapshotRoutes {
    let library: Library

    func add(to router: Router<some RequestContext>) {
        router.get("/api/snapshots") { _, _ in
            try await self.json { .array(try $0.session.snapshots().map(\.json)) }
        }
        router.post("/api/snapshots") { request, _ in
            let name = try await JSONBody.decodeIfPresent(TakeBody.self, from: request)?.name
            return try await self.json(status: .created) { try $0.session.takeSnapshot(named: name).json }
        }
        router.get("/api/snapshots/{name}/diff") { _, context in
            let name = try Self.name(context)
            return try await self.json { .array(try $0.session.differences(from: name).map(\.json)) }
        }
        router.post("/api/snapshots/{name}/restore") { _, context in
            let name = try Self.name(context)
            return try await self.json { library in
                let restore = try library.session.restoreSnapshot(named: name)
                return .object([
                    "name": .string(restore.name),
                    "changed": .array(restore.changed.map { .string("\($0)") }),
                    "current_album": restore.currentAlbum?.json ?? .null,
                ])
            }
        }
        router.delete("/api/snapshots/{name}") { _, context in
            let name = try Self.name(context)
            return try await self.json { library in
                try library.session.deleteSnapshot(named: name)
                return .object(["deleted": .string(name)])
            }
        }
    }

    private struct TakeBody: Decodable { var name: String? }

    /// The snapshot name of the path, percent-decoded (`my%20snap` is "my snap", `a%2Fb` "a/b").
    private static func name(_ context: some RequestContext) throws -> String {
        let raw = try context.parameters.require("name")
        guard let name = raw.removingPercentEncoding else {
            throw APIError(.badRequest, "the snapshot name \"\(raw.prefix(100))\" is not percent-encoded UTF-8")
        }
        return name
    }

    private func json(status: HTTPResponse.Status = .ok, _ body: @escaping @Sendable (Library) throws -> JSONValue) async throws -> Response {
        let library = library
        let value = try await library.offCooperativeThreads { try body(library) }
        return JSONBody.response(json: value.description, status: status)
    }
}
