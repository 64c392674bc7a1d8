import AlbumStore
import Foundation
import HTTPTypes
import TestSupport
import Testing

/// The page's three files, the token in the page, and no other path.
struct ServePageTests {
    @Test func thePageCarriesTheTokenAndOnlyItsFilesAreServed() async throws {
        let fixture = try ServerFixture()
        try await fixture.withClient { client in
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8")
            let html = String(buffer: page.body)
            #expect(html.contains(#"<meta name="albumstore-token" content="\#(fixture.configuration.token)">"#))
            #expect(!html.contains("{{TOKEN}}"))
            let script = try await client.execute(uri: "/app.js", method: .get)
            #expect(script.status == .ok && script.headers[.contentType] == "text/javascript; charset=utf-8")
            let style = try await client.execute(uri: "/app.css", method: .get)
            #expect(style.status == .ok && style.headers[.contentType] == "text/css; charset=utf-8")
            for path in ["/index.html", "/../Package.swift", "/%2e%2e/Package.swift", "/Page/app.js", "/etc/passwd", "/api"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .notFound, "\(path)")
            }
        }
    }
}
