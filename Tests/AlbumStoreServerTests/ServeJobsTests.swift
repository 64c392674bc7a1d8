import AlbumStore
@testable import AlbumStoreServer
import Foundation
import HTTPTypes
import TestSupport
import NIOCore
import Testing

/// `/api/import`, `/api/import-folder` and `/api/covers/fetch`: the long jobs, answered with
/// their summaries.
struct ServeJobsTests {
    @Test func aCatalogSentAsTheBodyIsImported() async throws {
        let fixture = try ServerFixture()
        let csv = "title,artist,year\nHunky Dory,David Bowie,1971\nLow,David Bowie,1977\n"
        try await fixture.withClient { client in
            let imported = try await client.execute(
                uri: "/api/import?name=more.csv", method: .post, headers: fixture.tokenHeader, body: ByteBuffer(string: csv))
            #expect(imported.status == .ok)
            #expect(imported.object["inserted"] as? Int == 1 && imported.object["skipped_duplicates"] as? Int == 1)
            #expect(imported.object["format"] as? String == "csv" && imported.object["file"] as? String == "more.csv")
        }
        #expect(try fixture.titles() == ["Low", "Kind of Blue", "Blue Train", "Hunky Dory"])
        // One undoable command.
        #expect(try fixture.newestCommand()?.hasPrefix("import") == true)
    }

    /// While one import holds the slot, another is refused at once with 409 naming the first (its
    /// body unread); once it ends, the next one runs.
    @Test func oneImportAtATime() async throws {
        let slot = ImportSlot()
        let (entered, enter) = AsyncStream<Void>.makeStream()
        let (release, letGo) = AsyncStream<Void>.makeStream()
        let first = Task {
            try await slot.run(.catalog(name: "albums.csv")) {
                enter.yield()
                for await _ in release { break }
                return "first"
            }
        }
        for await _ in entered { break }   // the first import holds the slot
        #expect(slot.current == .catalog(name: "albums.csv"))

        await #expect {
            try await slot.run(.folder(path: "/home/me/Music")) { "second" }
        } throws: { error in
            (error as? APIError)?.status == .conflict
                && (error as? APIError)?.message == "an import of albums.csv is running: wait for it to end"
                && (error as? APIError)?.busy == "Importing albums.csv"
        }
        letGo.yield()
        #expect(try await first.value == "first")
        #expect(slot.current == nil)
        #expect(try await slot.run(.catalog(name: nil)) { "third" } == "third")
    }

    @Test func aBadCatalogIsRefusedAndImportsNothing() async throws {
        let fixture = try ServerFixture()
        let before = try fixture.everything()
        try await fixture.withClient { client in
            let noColumns = try await client.execute(
                uri: "/api/import?name=a.csv", method: .post, headers: fixture.tokenHeader,
                body: ByteBuffer(string: "Album Name,Performer\nLow,Bowie\n"))
            #expect(noColumns.status == .badRequest && noColumns.error.hasPrefix("a.csv: no columns map to title and artist"))
            let badFormat = try await client.execute(
                uri: "/api/import?format=xlsx", method: .post, headers: fixture.tokenHeader, body: ByteBuffer(string: "x"))
            #expect(badFormat.status == .badRequest && badFormat.error.hasPrefix("format: \"xlsx\" is not one of csv"))
        }
        #expect(try fixture.everything() == before)
    }

    /// The API says what `albumstore import` says of the same file: its name, the line and the
    /// field at fault, and these as `line` and `field`.
    @Test func anInvalidRowIsNamedByFileLineAndFieldAsTheCLINamesIt() async throws {
        let fixture = try ServerFixture()
        let before = try fixture.everything()
        try await fixture.withClient { client in
            let one = try await client.execute(
                uri: "/api/import?name=b.csv", method: .post, headers: fixture.tokenHeader,
                body: ByteBuffer(string: "title,artist,year\nFine,Someone,1990\nBad,Someone,nineteen\n"))
            #expect(one.status == .badRequest)
            #expect(one.error == #"b.csv:3: year: "nineteen" is not a year; import refused, nothing changed"#)
            #expect(one.object["line"] as? Int == 3 && one.object["field"] as? String == "year")

            let two = try await client.execute(
                uri: "/api/import?name=c.csv", method: .post, headers: fixture.tokenHeader,
                body: ByteBuffer(string: "title,artist,year\nLow,David Bowie,1977\n,Nobody,\nHeroes,David Bowie,abc\n"))
            #expect(two.error == "c.csv:3: title: must not be empty; import refused, nothing changed (and 1 more invalid row)")
            #expect(two.object["line"] as? Int == 3 && two.object["field"] as? String == "title")

            let broken = try await client.execute(
                uri: "/api/import?name=d.json", method: .post, headers: fixture.tokenHeader,
                body: ByteBuffer(string: "[\n{\"title\": \"Low\", \"artist\": \"David Bowie\"},\n{\"title\": \n"))
            #expect(broken.status == .badRequest && broken.error.hasPrefix("d.json:") && broken.object["line"] is Int)
        }
        #expect(try fixture.everything() == before)
    }

    /// A file that is no catalog at all is named for what it is, as the CLI names it.
    @Test func anImageSentAsACatalogIsSaidToBeOne() async throws {
        let fixture = try ServerFixture()
        let before = try fixture.everything()
        try await fixture.withClient { client in
            let image = try await client.execute(
                uri: "/api/import?name=cover.png", method: .post, headers: fixture.tokenHeader,
                body: ByteBuffer(bytes: ServerFixture.png))
            #expect(image.status == .badRequest)
            #expect(image.error.hasPrefix("cover.png: is a PNG image, not a catalog"))
            #expect(image.object["line"] == nil)
        }
        #expect(try fixture.everything() == before)
    }

    @Test func fetchingCoversAnswersWithItsSummary() async throws {
        let fixture = try ServerFixture()
        try await fixture.withClient { client in
            // No album has a cover URL: nothing is downloaded, and the summary says which lack one.
            let fetched = try await client.execute(uri: "/api/covers/fetch", method: .post, headers: fixture.tokenHeader)
            #expect(fetched.status == .ok && (fetched.object["stored"] as? [Any])?.isEmpty == true)
            #expect(fetched.object["without_url"] as? [Int] == [Int(fixture.albums[1].id), Int(fixture.albums[2].id)])
            // Album 2's cover comes from this very server: album 1's cover.
            let port = client.port
            let url = "http://localhost:\(port)/api/covers/\(fixture.albums[0].id)"
            try fixture.setCoverURL(url, of: fixture.albums[1].id)
            let downloaded = try await client.execute(uri: "/api/covers/fetch", method: .post, headers: fixture.tokenHeader)
            let stored = downloaded.object["stored"] as? [[String: Any]] ?? []
            #expect(stored.count == 1 && stored.first?["album_id"] as? Int == Int(fixture.albums[1].id))
            #expect(stored.first?["format"] as? String == "png" && stored.first?["bytes"] as? Int == ServerFixture.png.count)
            #expect(try fixture.library.covers.info(albumID: fixture.albums[1].id) != nil)
            let some = try await client.execute(
                uri: "/api/covers/fetch", method: .post, headers: fixture.jsonWrite, body: ByteBuffer(json: #"{"q": "coltrane"}"#))
            #expect(some.object["without_url"] as? [Int] == [Int(fixture.albums[2].id)])
            let bad = try await client.execute(
                uri: "/api/covers/fetch", method: .post, headers: fixture.jsonWrite, body: ByteBuffer(json: #"{"q": "year:x"}"#))
            #expect(bad.status == .badRequest)
        }
    }

    @Test func aMusicFolderIsImportedAsOneCommandAndABadFolderIsRefused() async throws {
        let fixture = try ServerFixture()
        let tree = try MusicTree()
        let (root, missingFolder, expectedAlbums) = (tree.root.path, tree.path("no such folder"), tree.expected.albums.count + 1)
        let rejected = tree.expected.rejected.count
        let before = try fixture.everything()
        try await fixture.withClient { client in
            let missing = try await client.execute(
                uri: "/api/import-folder", method: .post, headers: fixture.jsonWrite,
                body: ByteBuffer(json: #"{"folder": "\#(missingFolder)"}"#))
            #expect(missing.status == .badRequest && missing.error.hasSuffix("no such folder"))
            #expect(try fixture.everything() == before)
            let imported = try await client.execute(
                uri: "/api/import-folder", method: .post, headers: fixture.jsonWrite,
                body: ByteBuffer(json: #"{"folder": "\#(root)"}"#))
            #expect(imported.status == .ok)
            #expect(imported.object["albums_added"] as? Int == expectedAlbums)
            let problems = imported.object["problems"] as? [[String: Any]] ?? []
            #expect(problems.count >= rejected && problems.allSatisfy { $0["reason"] is String })
        }
        #expect(try fixture.titles().count == fixture.albums.count + expectedAlbums)
        #expect(try fixture.newestCommand()?.hasPrefix("import folder") == true)
    }
}
