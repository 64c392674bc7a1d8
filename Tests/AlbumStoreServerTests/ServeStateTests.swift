import AlbumStore
import Foundation
import HTTPTypes
import TestSupport
import NIOCore
import Testing

/// `/api/state`: the current album and the tab order, saved in the library's session state.
struct ServeStateTests {
    @Test func theCurrentAlbumIsSavedAndReadBackClamped() async throws {
        let fixture = try ServerFixture()
        let last = fixture.albums[2].id
        try await fixture.withClient { client in
            let none = try await client.execute(uri: "/api/state/current", method: .get)
            #expect(none.object["index"] is NSNull && none.object["album"] is NSNull)
            let set = try await client.execute(
                uri: "/api/state/current", method: .put, headers: fixture.jsonWrite, body: ByteBuffer(json: #"{"id": \#(last)}"#))
            #expect(set.status == .ok && set.object["index"] as? Int == 2)
            #expect(try fixture.library.session.currentAlbum()?.album.id == last)
            // Its album deleted (by anyone), the saved index is clamped to the list.
            _ = try await client.execute(uri: "/api/albums/\(last)", method: .delete, headers: fixture.tokenHeader)
            let clamped = try await client.execute(uri: "/api/state/current", method: .get)
            #expect(clamped.object["index"] as? Int == 1)
            #expect((clamped.object["album"] as? [String: Any])?["title"] as? String == "Kind of Blue")
            let state = try await client.execute(uri: "/api/state", method: .get)
            #expect((state.object["current_album"] as? [String: Any])?["album_id"] as? Int == Int(last))
        }
    }

    @Test func refusedCurrentAlbumsChangeNothing() async throws {
        let fixture = try ServerFixture()
        let before = try fixture.everything()
        try await fixture.withClient { client in
            for (body, status, error) in [
                (#"{"id": 999}"#, HTTPResponse.Status.notFound, "no album with id 999"),
                (#"{"index": 3}"#, .badRequest, "index 3 is out of range"),
                (#"{"index": 1, "id": 2}"#, .badRequest, "the body names the current album by \"index\" or by \"id\" (one of them)"),
                (#"{"index": "one"}"#, .badRequest, "the request body is not the JSON expected: \"index\" is not of the right type"),
            ] {
                let response = try await client.execute(
                    uri: "/api/state/current", method: .put, headers: fixture.jsonWrite, body: ByteBuffer(json: body))
                #expect(response.status == status, "\(body)")
                #expect(response.error.hasPrefix(error), "\(body): \(response.error)")
            }
        }
        #expect(try fixture.everything() == before)
    }

    @Test func theTabOrderIsSavedOnlyWhenItChanges() async throws {
        let fixture = try ServerFixture()
        try await fixture.withClient { client in
            let fresh = try await client.execute(uri: "/api/state/tabs", method: .get)
            #expect(fresh.object["tabs"] as? [String] == ["albums", "search", "stats", "history"])
            let order = #"{"tabs": ["stats", "albums", "search", "history"]}"#
            let saved = try await client.execute(uri: "/api/state/tabs", method: .put, headers: fixture.jsonWrite, body: ByteBuffer(json: order))
            #expect(saved.object["changed"] as? Bool == true)
            let before = try fixture.everything()
            let again = try await client.execute(uri: "/api/state/tabs", method: .put, headers: fixture.jsonWrite, body: ByteBuffer(json: order))
            #expect(again.object["changed"] as? Bool == false)
            #expect(try fixture.everything() == before)
            let read = try await client.execute(uri: "/api/state/tabs", method: .get)
            #expect(read.object["tabs"] as? [String] == ["stats", "albums", "search", "history"])
            let bad = try await client.execute(
                uri: "/api/state/tabs", method: .put, headers: fixture.jsonWrite, body: ByteBuffer(json: #"{"tabs": ["stats", "stats"]}"#))
            #expect(bad.status == .badRequest && bad.error == "tabs: give each of albums, search, stats, history once")
            #expect(try fixture.everything() == before)
        }
    }
}
