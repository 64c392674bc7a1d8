import AlbumStore
import Foundation
import TestSupport
import NIOCore
import Testing

/// `/api/snapshots`: take, list, compare, restore and delete snapshots of the session state.
struct ServeSnapshotsTests {
    @Test func aSnapshotIsTakenComparedAndRestored() async throws {
        let fixture = try ServerFixture()
        try fixture.library.session.setCurrentAlbum(at: 0)
        try await fixture.withClient { client in
            let taken = try await client.execute(
                uri: "/api/snapshots", method: .post, headers: fixture.jsonWrite, body: ByteBuffer(json: #"{"name": "evening"}"#))
            #expect(taken.status == .created && taken.object["name"] as? String == "evening")
            try fixture.library.session.setCurrentAlbum(at: 2)
            let list = try await client.execute(uri: "/api/snapshots", method: .get)
            #expect((list.json as? [[String: Any]])?.map { $0["name"] as? String } == ["evening"])
            let diff = try await client.execute(uri: "/api/snapshots/evening/diff", method: .get)
            #expect((diff.json as? [[String: Any]])?.map { $0["item"] as? String } == ["current album"])
            let restored = try await client.execute(uri: "/api/snapshots/evening/restore", method: .post, headers: fixture.tokenHeader)
            #expect(restored.status == .ok && restored.object["changed"] as? [String] == ["current album"])
            #expect(try fixture.library.session.currentAlbum()?.index == 0)
            let unnamed = try await client.execute(uri: "/api/snapshots", method: .post, headers: fixture.tokenHeader)
            #expect(unnamed.status == .created && unnamed.object["name"] is String)
            let deleted = try await client.execute(uri: "/api/snapshots/evening", method: .delete, headers: fixture.tokenHeader)
            #expect(deleted.status == .ok && deleted.object["deleted"] as? String == "evening")
            #expect(try fixture.library.session.snapshots().map(\.name) == [unnamed.object["name"] as? String])
        }
    }

    @Test func unknownAndTakenNamesAreRefused() async throws {
        let fixture = try ServerFixture()
        try fixture.library.session.takeSnapshot(named: "evening")
        let before = try fixture.everything()
        try await fixture.withClient { client in
            let taken = try await client.execute(
                uri: "/api/snapshots", method: .post, headers: fixture.jsonWrite, body: ByteBuffer(json: #"{"name": "evening"}"#))
            #expect(taken.status == .conflict && taken.error.contains("evening"))
            let unknown = try await client.execute(uri: "/api/snapshots/morning/restore", method: .post, headers: fixture.tokenHeader)
            #expect(unknown.status == .notFound && unknown.error.contains("morning"))
            let diff = try await client.execute(uri: "/api/snapshots/morning/diff", method: .get)
            #expect(diff.status == .notFound)
            let delete = try await client.execute(uri: "/api/snapshots/morning", method: .delete, headers: fixture.tokenHeader)
            #expect(delete.status == .notFound && delete.error.contains("morning"))
        }
        #expect(try fixture.everything() == before)
    }

    /// A name with a space, an accent or a slash travels percent-encoded in the path.
    @Test func namesThatNeedPercentEncodingCanBeDiffedRestoredAndDeleted() async throws {
        let fixture = try ServerFixture()
        try await fixture.withClient { client in
            for (name, encoded) in [("my snap", "my%20snap"), ("café", "caf%C3%A9"), ("a/b", "a%2Fb")] {
                let body = try JSONSerialization.data(withJSONObject: ["name": name])
                let taken = try await client.execute(
                    uri: "/api/snapshots", method: .post, headers: fixture.jsonWrite, body: ByteBuffer(bytes: body))
                #expect(taken.status == .created, "\(name): \(taken.error)")
                let diff = try await client.execute(uri: "/api/snapshots/\(encoded)/diff", method: .get)
                #expect(diff.status == .ok, "\(name): \(diff.error)")
                let restored = try await client.execute(
                    uri: "/api/snapshots/\(encoded)/restore", method: .post, headers: fixture.tokenHeader)
                #expect(restored.status == .ok && restored.object["name"] as? String == name, "\(name): \(restored.error)")
                let deleted = try await client.execute(uri: "/api/snapshots/\(encoded)", method: .delete, headers: fixture.tokenHeader)
                #expect(deleted.status == .ok && deleted.object["deleted"] as? String == name, "\(name): \(deleted.error)")
            }
            let bad = try await client.execute(uri: "/api/snapshots/%FF/diff", method: .get)
            #expect(bad.status == .badRequest)
        }
    }
}
