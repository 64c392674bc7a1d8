import AlbumStore
import Foundation
import HTTPTypes
import NIOCore
import TestSupport
import Testing

/// `/api/library` and `/api/albums`: pages of the ordered list, one album, edit, delete and move.
struct ServeAlbumsTests {
    @Test func pagesOfTheListCarryIndexesAndCovers() async throws {
        let fixture = try ServerFixture()
        try await fixture.withClient { client in
            let page = try await client.execute(uri: "/api/albums?offset=1&limit=5", method: .get)
            #expect(page.status == .ok)
            #expect(page.object["total"] as? Int == 3 && page.object["offset"] as? Int == 1)
            let albums = page.object["albums"] as? [[String: Any]] ?? []
            #expect(albums.map { $0["title"] as? String } == ["Kind of Blue", "Blue Train"])
            #expect(albums.map { $0["index"] as? Int } == [1, 2])
            #expect(albums.allSatisfy { $0["cover"] is NSNull })

            let first = try await client.execute(uri: "/api/albums/\(fixture.albums[0].id)", method: .get)
            let cover = first.object["cover"] as? [String: Any]
            #expect(cover?["format"] as? String == "png" && cover?["width"] as? Int == 1)
            #expect(first.object["cover_url"] is NSNull && first.object["created_at"] is String)

            let library = try await client.execute(uri: "/api/library", method: .get)
            #expect(library.object["albums"] as? Int == 3 && library.object["can_undo"] as? Bool == true)
        }
    }

    @Test func badPagingAndUnknownAlbumsAreClearErrors() async throws {
        let fixture = try ServerFixture()
        try await fixture.withClient { client in
            let tooMany = try await client.execute(uri: "/api/albums?limit=501", method: .get)
            #expect(tooMany.status == .badRequest && tooMany.error == "limit: 501 is not between 1 and 500")
            let notANumber = try await client.execute(uri: "/api/albums?offset=x", method: .get)
            #expect(notANumber.status == .badRequest && notANumber.error == "offset: \"x\" is not a whole number")
            let unknown = try await client.execute(uri: "/api/albums/999", method: .get)
            #expect(unknown.status == .notFound && unknown.error.contains("999"))
            let badID = try await client.execute(uri: "/api/albums/abc", method: .get)
            #expect(badID.status == .badRequest && badID.error == "album id: \"abc\" is not a number")
            let nowhere = try await client.execute(uri: "/api/nothing", method: .get)
            #expect(nowhere.status == .notFound)
        }
    }

    @Test func deleteThenUndoBringsTheAlbumBackAtItsPlace() async throws {
        let fixture = try ServerFixture()
        let id = fixture.albums[1].id
        #expect(try fixture.titles() == ["Low", "Kind of Blue", "Blue Train"])
        try await fixture.withClient { client in
            let deleted = try await client.execute(uri: "/api/albums/\(id)", method: .delete, headers: fixture.tokenHeader)
            #expect(deleted.status == .ok)
            #expect((deleted.object["deleted"] as? [String: Any])?["title"] as? String == "Kind of Blue")
            #expect(try fixture.titles() == ["Low", "Blue Train"])
            let undo = try await client.execute(uri: "/api/undo", method: .post, headers: fixture.tokenHeader)
            #expect(undo.status == .ok)
            #expect(try fixture.titles() == ["Low", "Kind of Blue", "Blue Train"])
            let redo = try await client.execute(uri: "/api/redo", method: .post, headers: fixture.tokenHeader)
            #expect(redo.status == .ok)
            #expect(try fixture.titles() == ["Low", "Blue Train"])
            let history = try await client.execute(uri: "/api/history", method: .get)
            #expect((history.json as? [[String: Any]])?.last?["description"] as? String == "delete “Kind of Blue” by Miles Davis")
        }
    }

    @Test func refusedDeletesAndMovesChangeNothing() async throws {
        let fixture = try ServerFixture()
        let before = try fixture.everything()
        try await fixture.withClient { client in
            let unknown = try await client.execute(uri: "/api/albums/999", method: .delete, headers: fixture.tokenHeader)
            #expect(unknown.status == .notFound)
            let uri = "/api/albums/\(fixture.albums[0].id)/move"
            let outOfRange = try await client.execute(uri: uri, method: .post, headers: fixture.jsonWrite, body: ByteBuffer(json: #"{"index": 7}"#))
            #expect(outOfRange.status == .badRequest && outOfRange.error.contains("7"))
            let noIndex = try await client.execute(uri: uri, method: .post, headers: fixture.jsonWrite, body: ByteBuffer(json: #"{"place": 1}"#))
            #expect(noIndex.status == .badRequest && noIndex.error == "the request body is not the JSON expected: \"index\" is missing")
            let notJSON = try await client.execute(uri: uri, method: .post, headers: fixture.jsonWrite, body: ByteBuffer(json: "{"))
            #expect(notJSON.status == .badRequest && notJSON.error == "the request body is not the JSON expected: it is not valid JSON")
            let nothingToRedo = try await client.execute(uri: "/api/redo", method: .post, headers: fixture.tokenHeader)
            #expect(nothingToRedo.status == .conflict && nothingToRedo.error == "nothing to redo")
        }
        #expect(try fixture.everything() == before)
    }

    @Test func movingAnAlbumAnswersWithItsNewPlace() async throws {
        let fixture = try ServerFixture()
        let id = fixture.albums[2].id
        try await fixture.withClient { client in
            let moved = try await client.execute(
                uri: "/api/albums/\(id)/move", method: .post, headers: fixture.jsonWrite, body: ByteBuffer(json: #"{"index": 0}"#))
            #expect(moved.status == .ok && moved.object["index"] as? Int == 0)
        }
        #expect(try fixture.titles() == ["Blue Train", "Low", "Kind of Blue"])
    }

    /// A PATCH changes the fields it names as `albumstore edit` does (trimmed; empty or null
    /// clears), as one undoable command, and answers the album as GET does.
    @Test func anEditChangesTheFieldsItNamesAsOneUndoableCommand() async throws {
        let fixture = try ServerFixture()
        let id = fixture.albums[1].id
        let before = try fixture.everything()
        try await fixture.withClient { client in
            let edited = try await client.execute(
                uri: "/api/albums/\(id)", method: .patch, headers: fixture.jsonWrite,
                body: ByteBuffer(json: #"{"title": "  Kind of Blue (Legacy)  ", "year": 1997, "genre": "", "external_id": null}"#))
            #expect(edited.status == .ok)
            let shown = try await client.execute(uri: "/api/albums/\(id)")
            #expect(String(buffer: edited.body) == String(buffer: shown.body))
            #expect(edited.object["title"] as? String == "Kind of Blue (Legacy)" && edited.object["artist"] as? String == "Miles Davis")
            #expect(edited.object["year"] as? Int == 1997 && edited.object["genre"] is NSNull && edited.object["index"] as? Int == 1)

            let cleared = try await client.execute(
                uri: "/api/albums/\(id)", method: .patch, headers: fixture.jsonWrite, body: ByteBuffer(json: #"{"year": null}"#))
            #expect(cleared.status == .ok && cleared.object["year"] is NSNull)
        }
        #expect(try fixture.newestCommand() == "edit “Kind of Blue (Legacy)” by Miles Davis")
        try fixture.library.undo()
        try fixture.library.undo()
        #expect(try fixture.everything()[0] == before[0])
    }

    /// The latest year an album may have, as the library works it out (in UTC).
    static var nextYear: Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.component(.year, from: Date()) + 1
    }

    @Test func aBadEditIsRefusedNamingTheFieldAndChangesNothing() async throws {
        let fixture = try ServerFixture()
        let uri = "/api/albums/\(fixture.albums[0].id)"
        let before = try fixture.everything()
        try await fixture.withClient { client in
            let refusals: [(body: String, status: HTTPResponse.Status, error: String, field: String?)] = [
                (#"{"year": 3000}"#, .badRequest, "year: 3000 is not between 1000 and \(Self.nextYear)", "year"),
                (#"{"year": "1977"}"#, .badRequest, "year: must be a whole number or null", "year"),
                (#"{"title": "   "}"#, .badRequest, "title: must not be empty", "title"),
                (#"{"artist": null}"#, .badRequest, "artist: must not be empty", "artist"),
                (#"{"genre": 7}"#, .badRequest, "genre: must be a string or null", "genre"),
                (#"{"cover_url": "ftp://x"}"#, .badRequest, "cover URL: ftp://x is not an http(s) or file URL", "cover_url"),
                (#"{"title": "Low", "colour": "red"}"#, .badRequest,
                 #"unknown field "colour": an edit changes title, artist, genre, year, cover_url, external_id"#, "colour"),
                (#"{"id": 9}"#, .badRequest, #"unknown field "id": an edit changes title, artist, genre, year, cover_url, external_id"#, "id"),
                ("{}", .badRequest, "give at least one field to change: title, artist, genre, year, cover_url, external_id", nil),
                ("[1]", .badRequest, "the request body is not the JSON expected: the body is not of the right type", nil),
            ]
            for refusal in refusals {
                let answer = try await client.execute(uri: uri, method: .patch, headers: fixture.jsonWrite, body: ByteBuffer(json: refusal.body))
                #expect(answer.status == refusal.status && answer.error == refusal.error, "\(refusal.body)")
                #expect(answer.object["field"] as? String == refusal.field, "\(refusal.body)")
            }
            let unknown = try await client.execute(
                uri: "/api/albums/999", method: .patch, headers: fixture.jsonWrite, body: ByteBuffer(json: #"{"year": 1977}"#))
            #expect(unknown.status == .notFound && unknown.error == "no album with id 999")
        }
        #expect(try fixture.everything() == before)
    }
}
