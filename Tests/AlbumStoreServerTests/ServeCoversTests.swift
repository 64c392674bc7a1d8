import AlbumStore
import Foundation
import HTTPTypes
import TestSupport
import NIOCore
import Testing

/// `/api/covers/{id}`: served with their sniffed type and their hash as ETag; set and removed.
struct ServeCoversTests {
    @Test func aCoverIsServedWithItsTypeAndHash() async throws {
        let fixture = try ServerFixture()
        let id = fixture.albums[0].id
        let hash = try #require(try fixture.library.covers.info(albumID: id)).sha256
        try await fixture.withClient { client in
            let cover = try await client.execute(uri: "/api/covers/\(id)", method: .get)
            #expect(cover.status == .ok && Data(cover.body.readableBytesView) == ServerFixture.png)
            #expect(cover.headers[.contentType] == "image/png" && cover.headers[.eTag] == "\"\(hash)\"")
            #expect(cover.headers[.xContentTypeOptions] == "nosniff")
            let again = try await client.execute(uri: "/api/covers/\(id)", method: .get, headers: [.ifNoneMatch: "\"\(hash)\""])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            let none = try await client.execute(uri: "/api/covers/\(fixture.albums[1].id)", method: .get)
            #expect(none.status == .notFound && none.error == "album \(fixture.albums[1].id) has no cover")
            let unknown = try await client.execute(uri: "/api/covers/999", method: .get)
            #expect(unknown.status == .notFound && unknown.error == "no album with id 999")
        }
    }

    @Test func aCoverIsSetFromTheBodyAndRemoved() async throws {
        let fixture = try ServerFixture()
        let id = fixture.albums[1].id
        try await fixture.withClient { client in
            let set = try await client.execute(
                uri: "/api/covers/\(id)", method: .put, headers: fixture.tokenHeader + [.contentType: "image/png"],
                body: ByteBuffer(bytes: ServerFixture.png))
            #expect(set.status == .ok && set.object["format"] as? String == "png")
            // snake_case, as the rest of the API
            #expect(Set(set.object.keys) == ["album_id", "sha256", "format", "width", "height", "bytes"])
            #expect(set.object["album_id"] as? Int64 == id && set.object["bytes"] as? Int == ServerFixture.png.count)
            #expect(try fixture.library.covers.info(albumID: id) != nil)
            let removed = try await client.execute(uri: "/api/covers/\(id)", method: .delete, headers: fixture.tokenHeader)
            #expect(removed.status == .ok && Set(removed.object.keys) == Set(set.object.keys))
            #expect(try fixture.library.covers.info(albumID: id) == nil)
        }
    }

    /// The history names the album by its title, as a delete does, never by its id.
    @Test func settingAndRemovingACoverNameTheAlbumInTheHistory() async throws {
        let fixture = try ServerFixture()
        let (low, blue) = (fixture.albums[0].id, fixture.albums[1].id)
        try await fixture.withClient { client in
            let set = try await client.execute(
                uri: "/api/covers/\(blue)", method: .put, headers: fixture.tokenHeader, body: ByteBuffer(bytes: ServerFixture.png))
            #expect(set.status == .ok)
            #expect(try fixture.newestCommand() == "set the cover of “Kind of Blue” by Miles Davis (png 1×1)")
            let removed = try await client.execute(uri: "/api/covers/\(low)", method: .delete, headers: fixture.tokenHeader)
            #expect(removed.status == .ok)
            let history = try await client.execute(uri: "/api/history")
            #expect((history.json as? [[String: Any]])?.last?["description"] as? String == "remove the cover of “Low” by David Bowie")
            let undo = try await client.execute(uri: "/api/undo", method: .post, headers: fixture.tokenHeader)
            #expect((undo.object["entry"] as? [String: Any])?["description"] as? String == "remove the cover of “Low” by David Bowie")
        }
    }

    @Test func notAnImageAndTooBigAreRefusedAndChangeNothing() async throws {
        let fixture = try ServerFixture()
        let id = fixture.albums[1].id
        let before = try fixture.everything()
        try await fixture.withClient { client in
            let text = try await client.execute(
                uri: "/api/covers/\(id)", method: .put, headers: fixture.tokenHeader, body: ByteBuffer(string: "<svg onload=alert(1)>"))
            #expect(text.status == .unsupportedMediaType && text.error == "album \(id)'s cover: not a PNG, JPEG, GIF or WebP image")
            let huge = try await client.execute(
                uri: "/api/covers/\(id)", method: .put, headers: fixture.tokenHeader,
                body: ByteBuffer(repeating: 0, count: CoverRepository.defaultSizeLimit + 1))
            #expect(huge.status == .contentTooLarge && huge.error == "a cover may not exceed 20480 KB", "\(huge.status) \(huge.error)")
            let unknown = try await client.execute(
                uri: "/api/covers/999", method: .put, headers: fixture.tokenHeader, body: ByteBuffer(bytes: ServerFixture.png))
            #expect(unknown.status == .notFound)
            let noCover = try await client.execute(uri: "/api/covers/\(id)", method: .delete, headers: fixture.tokenHeader)
            #expect(noCover.status == .notFound)
        }
        #expect(try fixture.everything() == before)
    }
}
