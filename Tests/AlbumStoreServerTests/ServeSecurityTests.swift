import AlbumStore
import AlbumStoreServer
import Foundation
import HTTPTypes
import NIOCore
import TestSupport
import Testing

/// What the server refuses whatever a route would do: a foreign Host (DNS rebinding), a write
/// without the token (CSRF), an oversized body; and what every response says.
struct ServeSecurityTests {
    @Test func aForeignHostIsRefusedAndChangesNothing() async throws {
        let fixture = try ServerFixture()
        let before = try fixture.everything()
        let id = fixture.albums[0].id
        try await fixture.withClient { client in
            let port = client.port
            let other = port == 9999 ? 9998 : 9999
            for authority in ["evil.example", "evil.example:\(port)", "127.0.0.1.evil.example", "127.0.0.1:\(other)",
                              "[::1]evil.com", "[::1]:\(port)evil", "127.0.0.1:\(port)x", "127.0.0.1", "localhost:+\(port)",
                              "[::1", ":\(port)"] {
                let read = try await client.execute(uri: "/api/albums", method: .get, authority: authority)
                #expect(read.status == .forbidden)
                let write = try await client.execute(uri: "/api/albums/\(id)", method: .delete, authority: authority, headers: fixture.tokenHeader)
                #expect(write.status == .forbidden)
                #expect(String(buffer: write.body).contains("does not name this server"))
            }
            for authority in ["localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)", "LOCALHOST:\(port)"] {
                let read = try await client.execute(uri: "/api/library", method: .get, authority: authority)
                #expect(read.status == .ok, "\(authority)")
            }
        }
        #expect(try fixture.everything() == before)
    }

    @Test func aWriteWithoutTheTokenIsRefusedAndChangesNothing() async throws {
        let fixture = try ServerFixture()
        let before = try fixture.everything()
        let id = fixture.albums[0].id
        try await fixture.withClient { client in
            let wrong: HTTPFields = [HTTPField.Name("X-AlbumStore-Token")!: "0123"]
            for headers in [[:], wrong] as [HTTPFields] {
                for (uri, method) in [("/api/albums/\(id)", HTTPRequest.Method.delete), ("/api/undo", .post), ("/api/covers/\(id)", .delete),
                                      ("/api/state/tabs", .put), ("/api/import", .post), ("/api/snapshots", .post)] {
                    let response = try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: "{}"))
                    #expect(response.status == .forbidden, "\(method) \(uri)")
                    #expect(response.error == "a write needs the server's token (X-AlbumStore-Token)")
                }
            }
        }
        #expect(try fixture.everything() == before)
    }

    @Test func anOversizedJSONBodyIsRefused() async throws {
        let fixture = try ServerFixture()
        let before = try fixture.everything()
        try await fixture.withClient { client in
            let huge = #"{"tabs": ["\#(String(repeating: "a", count: 70_000))"]}"#
            let response = try await client.execute(uri: "/api/state/tabs", method: .put, headers: fixture.jsonWrite, body: ByteBuffer(json: huge))
            #expect(response.status == .contentTooLarge && response.error == "a JSON body may not exceed 64 KB", "\(response.status) \(response.error)")
        }
        #expect(try fixture.everything() == before)
    }

    @Test func everyResponseForbidsSniffingAndForeignScripts() async throws {
        let fixture = try ServerFixture()
        try await fixture.withClient { client in
            for uri in ["/", "/app.js", "/app.css", "/api/albums", "/api/nothing", "/api/covers/\(fixture.albums[0].id)"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(uri)")
                #expect(response.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'self'") == true, "\(uri)")
            }
        }
    }

    /// Off loopback (`--bind 0.0.0.0`), the token guards: a Host naming the machine by any of its
    /// addresses passes with it, and is refused without it.
    @Test func offLoopbackAHostNamingTheMachinePassesWithTheToken() async throws {
        let fixture = try ServerFixture(host: "0.0.0.0")
        try await fixture.withClient { client in
            for authority in ["192.0.2.2:\(client.port)", "albums.local:\(client.port)", "[2001:db8::2]:\(client.port)"] {
                let read = try await client.execute(uri: "/api/library", method: .get, authority: authority, headers: fixture.tokenHeader)
                #expect(read.status == .ok, "\(authority)")
                let bare = try await client.execute(uri: "/api/library", method: .get, authority: authority)
                #expect(bare.status == .forbidden, "\(authority)")
            }
        }
    }

    /// Off loopback (`--bind`), reads need the token too: as a header, as the printed address's
    /// query, or as the cookie the page then keeps.
    @Test func offLoopbackEveryRequestNeedsTheToken() async throws {
        let fixture = try ServerFixture(host: "0.0.0.0")
        let token = fixture.configuration.token
        try await fixture.withClient { client in
            // (This client names the server by its loopback address: the Host check lets it through.)
            let host: HTTPFields = [:]
            let bare = try await client.execute(uri: "/api/albums", method: .get, headers: host)
            #expect(bare.status == .forbidden && bare.error == "this server needs its token")
            let page = try await client.execute(uri: "/?token=\(token)", method: .get, headers: host)
            #expect(page.status == .ok && page.headers[.setCookie]?.hasPrefix("albumstore_token=\(token);") == true)
            let withCookie = try await client.execute(uri: "/api/albums", method: .get, headers: host + [.cookie: "albumstore_token=\(token)"])
            #expect(withCookie.status == .ok)
            let wrongCookie = try await client.execute(uri: "/api/albums", method: .get, headers: host + [.cookie: "albumstore_token=x"])
            #expect(wrongCookie.status == .forbidden)
        }
    }
}
