import AlbumStore
@testable import AlbumStoreServer
import Foundation
import HTTPTypes
import Logging
import NIOCore
import ServiceLifecycle
import TestSupport
import Testing

/// A library in a folder of its own with three albums (the first with a cover), and the album
/// browser's server over it, live on a free loopback port. (Unchecked Sendable: every property
/// is set once, in `init`; the folder is only removed when the fixture goes.)
final class ServerFixture: @unchecked Sendable {
    let folder: TemporaryDirectory
    let library: Library
    let configuration: ServerConfiguration
    let albums: [Album]
    /// The server `withClient` runs: its import slot (`server.imports`) may be held by a test.
    let server: AlbumServer

    /// A 1×1 PNG.
    static let png = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
        0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x08, 0xD7, 0x63, 0xF8, 0xCF, 0xC0, 0x00,
        0x00, 0x03, 0x01, 0x01, 0x00, 0x18, 0xDD, 0x8D, 0xB0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E,
        0x44, 0xAE, 0x42, 0x60, 0x82,
    ])

    /// - Parameter musicBrainz: The base URL the page's enrichment asks (a stand-in's).
    init(host: String = "127.0.0.1", musicBrainz: String? = nil) throws {
        folder = try TemporaryDirectory()
        library = try Library.open(at: folder.file("library.sqlite"))
        var configuration = ServerConfiguration(host: host, port: 0)
        if let musicBrainz {
            configuration.musicBrainzURL = musicBrainz
            configuration.coverArtURL = musicBrainz
        }
        self.configuration = configuration
        albums = [
            try library.albums.append(AlbumDraft(title: "Low", artist: "David Bowie", genre: "Rock", year: 1977)),
            try library.albums.append(AlbumDraft(title: "Kind of Blue", artist: "Miles Davis", genre: "Jazz", year: 1959)),
            try library.albums.append(AlbumDraft(title: "Blue Train", artist: "John Coltrane", genre: "Jazz", year: 1957)),
        ]
        try library.covers.set(albumID: albums[0].id, data: Self.png)
        server = AlbumServer(library: library, configuration: configuration)
    }

    var tokenHeader: HTTPFields { [HTTPField.Name("X-AlbumStore-Token")!: configuration.token] }
    var jsonWrite: HTTPFields { tokenHeader + [.contentType: "application/json"] }

    /// Runs `body` with a client of the live server, then stops the server.
    func withClient<T: Sendable>(_ body: (HTTPTestClient) async throws -> T) async throws -> T {
        let (ports, port) = AsyncStream<Int>.makeStream()
        let application = server.application { _, bound in port.yield(bound) }
        let server = ServiceGroup(configuration: .init(services: [application], logger: Logger(label: "ServerFixture")))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { port.finish() }
                try await server.run()
            }
            var running = ports.makeAsyncIterator()
            guard let bound = await running.next() else {
                try await tasks.waitForAll()
                throw HTTPTestClientError(description: "the server stopped before it listened")
            }
            // A server bound to every address is reached on loopback.
            let client = HTTPTestClient(host: configuration.isLoopback ? configuration.host : "127.0.0.1", port: bound)
            do {
                let value = try await body(client)
                await server.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return value
            } catch {
                await server.triggerGracefulShutdown()
                throw error
            }
        }
    }

    func setCoverURL(_ url: String, of id: Int64) throws {
        _ = try library.albums.update(id: id) { $0.coverURL = url }
    }

    /// The albums' titles in list order.
    func titles() throws -> [String] { try library.albums.page().map(\.album.title) }

    /// The newest history entry's description.
    func newestCommand() throws -> String? { try library.historyEntries().last?.description }

    /// Everything a request could change: the albums in order, the history, the session state
    /// and the covers. A refused write leaves it equal.
    func everything() throws -> [String] {
        [
            "\(try library.albums.page().map { $0.album })",
            "\(try library.historyEntries())",
            "\(try library.session.state())",
            "\(try library.session.snapshots())",
            "\(try library.albums.page().map { try library.covers.info(albumID: $0.album.id) })",
        ]
    }
}

extension HTTPTestResponse {
    /// The body as JSON.
    var json: Any { (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView), options: [.fragmentsAllowed])) ?? "not JSON" }
    var object: [String: Any] { json as? [String: Any] ?? [:] }
    /// The `error` of an error response.
    var error: String { object["error"] as? String ?? "(no error member in \(String(buffer: body)))" }
}

extension HTTPFields {
    static func + (lhs: HTTPFields, rhs: HTTPFields) -> HTTPFields {
        var fields = lhs
        fields.append(contentsOf: rhs)
        return fields
    }
}

extension ByteBuffer {
    init(json: String) { self.init(string: json) }
}
