import AlbumStore
@testable import AlbumStoreServer
import Foundation
import HTTPTypes
import NIOCore
import TestSupport
import Testing

/// While an import runs, nothing waits on it: every other write is refused at once, naming what
/// runs, and the page learns it from `/api/library` and the `job` event.
struct ServeBusyTests {
    /// Holds an import slot, as a running import does, until `release()`.
    final class SlotHolder: Sendable {
        private let task: Task<Void, any Error>
        private let letGo: AsyncStream<Void>.Continuation

        init(_ slot: ImportSlot, for job: ImportSlot.Job) async {
            let (entered, enter) = AsyncStream<Void>.makeStream()
            let (release, letGo) = AsyncStream<Void>.makeStream()
            self.letGo = letGo
            task = Task {
                try await slot.run(job) {
                    enter.yield()
                    for await _ in release { break }
                }
            }
            for await _ in entered { break }
        }

        func release() async throws {
            letGo.yield()
            try await task.value
        }
    }

    @Test func writesAreRefusedAtOnceNamingTheImportAndWorkOnceItEnds() async throws {
        let fixture = try ServerFixture()
        let (low, blue) = (fixture.albums[0].id, fixture.albums[1].id)
        let before = try fixture.everything()
        try await fixture.withClient { client in
            let holder = await SlotHolder(fixture.server.imports, for: .catalog(name: "albums.csv"))
            let library = try await client.execute(uri: "/api/library")
            #expect(library.object["busy"] as? String == "Importing albums.csv")

            let writes: [(String, HTTPRequest.Method, String?)] = [
                ("/api/albums/\(blue)", .delete, nil),
                ("/api/undo", .post, nil),
                ("/api/albums/\(blue)", .patch, #"{"year": 1960}"#),
                ("/api/albums/\(blue)/move", .post, #"{"index": 0}"#),
                ("/api/state/current", .put, #"{"index": 1}"#),
                ("/api/covers/\(low)", .delete, nil),
                ("/api/snapshots", .post, "{}"),
                ("/api/import?name=more.csv", .post, "title,artist\nHeroes,David Bowie\n"),
                ("/api/import-folder", .post, #"{"folder": "/nowhere"}"#),
            ]
            // Each is answered while the slot is held: refused, not queued behind the import.
            for (uri, method, body) in writes {
                let refused = try await client.execute(
                    uri: uri, method: method, headers: fixture.jsonWrite, body: body.map { ByteBuffer(string: $0) })
                #expect(refused.status == .conflict, "\(method) \(uri)")
                #expect(refused.error == "an import of albums.csv is running: wait for it to end", "\(method) \(uri)")
                #expect(refused.object["busy"] as? String == "Importing albums.csv", "\(method) \(uri)")
            }
            // Reads pass, and so does an enrichment's lookup, which writes nothing (a bad query:
            // refused for itself, not for the import).
            #expect(try await client.execute(uri: "/api/albums").status == .ok)
            let lookup = try await client.execute(
                uri: "/api/enrich/proposals", method: .post, headers: fixture.jsonWrite, body: ByteBuffer(json: #"{"q": "year:x"}"#))
            #expect(lookup.status == .badRequest)
            #expect(try fixture.everything() == before)

            try await holder.release()
            let idle = try await client.execute(uri: "/api/library")
            #expect(idle.object["busy"] is NSNull)
            let deleted = try await client.execute(uri: "/api/albums/\(blue)", method: .delete, headers: fixture.tokenHeader)
            #expect(deleted.status == .ok)
        }
        #expect(try fixture.titles() == ["Low", "Blue Train"])
    }

    @Test func aFolderScanIsNamedByItsFolder() async throws {
        let fixture = try ServerFixture()
        try await fixture.withClient { client in
            let holder = await SlotHolder(fixture.server.imports, for: .folder(path: "/home/me/Music"))
            let refused = try await client.execute(uri: "/api/undo", method: .post, headers: fixture.tokenHeader)
            #expect(refused.status == .conflict && refused.error == "a scan of /home/me/Music is running: wait for it to end")
            #expect(refused.object["busy"] as? String == "Scanning /home/me/Music")
            try await holder.release()
        }
    }

    /// `job` events frame each import, a refused one as well as one that succeeds.
    @Test func anImportIsToldAsJobEventsWhenItStartsAndEnds() async throws {
        let fixture = try ServerFixture()
        let headers = fixture.tokenHeader
        var text = "", imports: Task<[HTTPResponse.Status], any Error>?
        try await fixture.withClient { client in
            _ = try await client.send(uri: "/api/events") { part in
                text += String(buffer: part)
                if imports == nil, text.hasPrefix(": keep-alive\n\n") {
                    imports = Task {
                        let bad = try await client.execute(
                            uri: "/api/import?name=bad.csv", method: .post, headers: headers, body: ByteBuffer(string: "Album,Who\nx,y\n"))
                        let good = try await client.execute(
                            uri: "/api/import?name=good.csv", method: .post, headers: headers,
                            body: ByteBuffer(string: "title,artist\nHeroes,David Bowie\n"))
                        return [bad.status, good.status]
                    }
                }
                return text.components(separatedBy: #"{"busy":null}"#).count == 3 && text.hasSuffix("\n\n")
            }
        }
        #expect(try await imports?.value == [.badRequest, .ok])
        let jobs = text.components(separatedBy: "event: job\ndata: ").dropFirst().map { $0.prefix { $0 != "\n" } }
        #expect(jobs == [#"{"busy":"Importing bad.csv"}"#, #"{"busy":null}"#, #"{"busy":"Importing good.csv"}"#, #"{"busy":null}"#])
    }
}
