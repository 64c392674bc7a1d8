import AlbumStore
import Foundation
import HTTPTypes
import NIOCore
import TestSupport
import Testing

/// `/api/enrich/proposals` and `/api/enrich/apply` against `MusicBrainzStandIn`, at the real pace.
struct ServeEnrichTests {
    @Test func proposalsChangeNothingAndOnlyTheAcceptedAreAppliedOnce() async throws {
        let standIn = try MusicBrainzStandIn(releases: [
            .init(id: "9e0fe8c8-6e0a-4a7e-9b9e-111111111111", title: "Low", artist: "David Bowie", date: "1977"),
            .init(id: "9e0fe8c8-6e0a-4a7e-9b9e-222222222222", title: "Kind of Blue", artist: "Miles Davis", date: "1959"),
        ], cover: TestImages.png(width: 500, height: 500, padding: 100))
        let fixture = try ServerFixture(musicBrainz: standIn.url)
        let (low, blue, train) = (fixture.albums[0].id, fixture.albums[1].id, fixture.albums[2].id)
        let before = try fixture.everything()
        try await fixture.withClient { client in
            let looked = try await client.execute(
                uri: "/api/enrich/proposals", method: .post, headers: fixture.jsonWrite, body: ByteBuffer(json: "{}"))
            #expect(looked.status == .ok)
            let proposals = looked.object["proposals"] as? [[String: Any]] ?? []
            #expect(Set(proposals.compactMap { $0["id"] as? String })
                == ["\(low)-musicbrainz_id", "\(blue)-musicbrainz_id", "\(blue)-cover"])
            #expect((looked.object["not_found"] as? [[String: Any]])?.first?["album_id"] as? Int64 == train)
            #expect(try fixture.everything() == before)
            let review = try #require(looked.object["review"] as? String)

            let body = "{\"review\": \"\(review)\", \"accept\": [\"\(blue)-musicbrainz_id\"]}"
            let applied = try await client.execute(
                uri: "/api/enrich/apply", method: .post, headers: fixture.jsonWrite, body: ByteBuffer(json: body))
            #expect(applied.status == .ok)
            #expect(applied.object["applied"] as? [String] == ["\(blue)-musicbrainz_id"])

            let again = try await client.execute(
                uri: "/api/enrich/apply", method: .post, headers: fixture.jsonWrite, body: ByteBuffer(json: body))
            #expect(again.status == .conflict && again.error.hasPrefix("these proposals are no longer held"))
        }
        #expect(try await fixture.library.albums.album(id: blue)?.externalID == "9e0fe8c8-6e0a-4a7e-9b9e-222222222222")
        #expect(try await fixture.library.albums.album(id: low)?.externalID == nil)
        #expect(try fixture.library.covers.info(albumID: blue) == nil)
        #expect(try fixture.newestCommand() == "enrich “Kind of Blue” by Miles Davis from MusicBrainz")
    }
}
