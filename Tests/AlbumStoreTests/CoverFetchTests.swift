import Foundation
import TestSupport
import Testing
@testable import AlbumStore
#if canImport(Glibc)
import Glibc
#endif

/// `fetchMissing` against `LocalHTTPServer` on 127.0.0.1: nothing leaves the machine.
struct CoverFetchTests {
    let directory: TemporaryDirectory
    static let image = TestImages.png(width: 640, height: 640, padding: 2000)

    /// Short waits, so that the timeout and retry cases take seconds, not minutes.
    static let options = CoverFetchOptions(concurrency: 4, timeout: .milliseconds(1500), attempts: 3, backoff: .milliseconds(20),
                                           sizeLimit: 100_000)

    init() throws { directory = try TemporaryDirectory() }

    static func routes(_ path: String, _ count: Int) -> LocalHTTPServer.Response {
        let png = [("Content-Type", "image/png")]
        switch path {
        case "/ok.png": return .init(headers: png, body: image)
        case "/missing.png": return .init(status: 404, body: Data("not found".utf8))
        case "/flaky.png": return count == 0 ? .init(status: 500) : .init(headers: png, body: image)
        // Slower than the fetch's timeout: the delay is what is tested.
        case "/slow.png": return .init(headers: png, body: image, delay: 5)
        case "/huge.png": return .init(headers: png, body: TestImages.png(width: 1, height: 1, padding: 3_000_000), streamedInChunksOf: 16 * 1024)
        case "/page.html": return .init(headers: [("Content-Type", "text/html")], body: Data("<html></html>".utf8))
        // Held until two downloads overlap (what the concurrency limit is about), then long
        // enough for a third to overlap too, were the limit not kept.
        case "/pause.png": return .init(headers: png, body: image, delay: 0.3, heldUntilConcurrent: 2)
        case "/moved": return .init(status: 302, headers: [("Location", "/ok.png")])
        case "/to-file": return .init(status: 302, headers: [("Location", "file:///etc/hostname")])
        case "/loop": return .init(status: 302, headers: [("Location", "/loop")])
        default: return .init(status: 404)
        }
    }

    /// A library with one album per cover URL, in order.
    private func library(urls: [String?]) throws -> (Library, [Int64]) {
        let library = try Library.open(at: directory.file("library.sqlite"))
        let ids = try urls.enumerated().map { index, url in
            try library.albums.append(AlbumDraft(title: "Album \(index)", artist: "Artist", coverURL: url)).id
        }
        return (library, ids)
    }

    /// Slow: a timed-out download waits out the fetch's timeout, each of its attempts.
    @Test(.tags(.slow), .disabledInQuickSuite)
    func eachCaseEndsAsItShouldAndNoFailureStopsTheBatch() async throws {
        let server = try LocalHTTPServer(Self.routes)
        defer { server.stop() }
        let file = directory.file("notes.txt")
        try Data("not an image".utf8).write(to: file)
        let paths = ["/ok.png", "/missing.png", "/flaky.png", "/slow.png", "/huge.png", "/page.html", "/moved"]
        let urls: [String?] = paths.map(server.url) + [file.absoluteString, nil]
        let (library, ids) = try library(urls: urls)

        let summary = try await library.covers.fetchMissing(options: Self.options)

        #expect(Set(summary.stored.map(\.albumID)) == [ids[0], ids[2], ids[6]])
        for id in [ids[0], ids[2], ids[6]] { #expect(try library.covers.data(albumID: id) == Self.image) }
        let reasons = Dictionary(uniqueKeysWithValues: summary.failures.map { ($0.albumID, $0.reason) })
        #expect(reasons == [
            ids[1]: "HTTP status 404",
            ids[3]: "timed out",
            ids[4]: "larger than the cover size cap of 100000 bytes",
            ids[5]: "content type text/html is not an image",
            ids[7]: "refused: only http and https URLs are downloaded",
        ])
        #expect(summary.withoutURL == [ids[8]])
        #expect(server.requests(to: "/flaky.png") == 2)     // 500, then success on the retry
        #expect(server.requests(to: "/slow.png") >= 2)      // a timeout is retried
        #expect(server.requests(to: "/missing.png") == 1)   // a 404 is not
    }

    /// Redirects stay on http(s) and end; a host that refuses the connection is one failure.
    @Test func redirectsToOtherSchemesLoopsAndRefusedConnectionsFail() async throws {
        let server = try LocalHTTPServer(Self.routes)
        let closed = try LocalHTTPServer(Self.routes)
        let closedURL = closed.url("/ok.png")
        closed.stop()
        defer { server.stop() }
        let (library, ids) = try library(urls: [server.url("/to-file"), server.url("/loop"), closedURL])

        let summary = try await library.covers.fetchMissing(options: Self.options)

        #expect(summary.stored.isEmpty)
        let reasons = Dictionary(uniqueKeysWithValues: summary.failures.map { ($0.albumID, $0.reason) })
        #expect(reasons[ids[0]] == "redirected to a URL that is not http or https")
        #expect(reasons[ids[1]] == "too many redirects (more than 5)")
        #expect(reasons[ids[2]] == "cannot connect to the host")
        #expect(server.requests(to: "/loop") == 6)   // the first request and 5 redirects
    }

    @Test func aCoverOnceFetchedIsNeverFetchedAgain() async throws {
        let server = try LocalHTTPServer(Self.routes)
        defer { server.stop() }
        let (library, ids) = try library(urls: [server.url("/ok.png")])

        let first = try await library.covers.fetchMissing(options: Self.options)
        let requests = server.requests(to: "/ok.png")
        let second = try await library.covers.fetchMissing(options: Self.options)

        #expect(first.stored.map(\.albumID) == ids)
        #expect(second.stored.isEmpty && second.failures.isEmpty)
        #expect(server.requests(to: "/ok.png") == requests)
    }

    @Test func theCapIsEnforcedWhileTheBodyStreamsNotAfter() async throws {
        let server = try LocalHTTPServer(Self.routes)
        defer { server.stop() }
        let (library, ids) = try library(urls: [server.url("/huge.png")])

        let summary = try await library.covers.fetchMissing(options: Self.options)

        #expect(summary.failures.map(\.albumID) == ids)
        #expect(try library.covers.stats().imageCount == 0)
    }

    @Test func downloadsRunAtMostConcurrencyAtOnce() async throws {
        let server = try LocalHTTPServer(Self.routes)
        defer { server.stop() }
        let (library, _) = try library(urls: Array(repeating: server.url("/pause.png"), count: 6))
        var options = Self.options
        options.concurrency = 2
        options.timeout = .seconds(30)   // no retry: each request held by the server is one download

        let summary = try await library.covers.fetchMissing(options: options)

        #expect(summary.stored.count == 6)
        #expect(server.mostConcurrentRequests == 2)
    }

    @Test func onlyTheChosenAlbumsAreFetched() async throws {
        let server = try LocalHTTPServer(Self.routes)
        defer { server.stop() }
        let (library, ids) = try library(urls: [server.url("/ok.png"), server.url("/ok.png")])

        let summary = try await library.covers.fetchMissing(among: [ids[1]], options: Self.options)

        #expect(summary.stored.map(\.albumID) == [ids[1]])
        #expect(try library.covers.data(albumID: ids[1]) == Self.image)
        #expect(try library.covers.info(albumID: ids[0]) == nil)
    }

    /// A fetched image is checked as a set one is: a header claiming 2³¹-1 pixels a side is no cover.
    @Test func aFetchedImageClaimingAnAbsurdSizeIsAFailure() async throws {
        let huge = TestImages.png(width: 2_147_483_647, height: 2_147_483_647)
        let server = try LocalHTTPServer { _, _ in .init(headers: [("Content-Type", "image/png")], body: huge) }
        defer { server.stop() }
        let (library, ids) = try library(urls: [server.url("/huge.png")])

        let summary = try await library.covers.fetchMissing(options: Self.options)

        #expect(summary.stored.isEmpty)
        #expect(summary.failures.map(\.albumID) == ids)
        #expect(summary.failures.first?.reason.contains("2147483647×2147483647 pixels is past the limits of a cover") == true)
        #expect(try library.covers.stats().imageCount == 0)
    }

    /// A catalog from elsewhere may name any file of this machine as a cover: a secret, a FIFO
    /// without a writer (which used to block the fetch for good, whatever its timeout), a device
    /// that never ends. Only http and https are downloaded; nothing else is opened.
    @Test func urlsThatAreNotHTTPAreRefusedUnopened() async throws {
        let file = directory.file("cover.gif"), fifo = directory.file("cover.fifo")
        try TestImages.gif(width: 4, height: 4).write(to: file)
        #expect(mkfifo(fifo.path, 0o600) == 0)
        // Other schemes and bare paths, which `AlbumDraft` refuses, are in the CLI's tests.
        let urls = [file.absoluteString, "FILE://" + file.path, fifo.absoluteString, "file:///dev/zero"]
        let (library, ids) = try library(urls: urls)

        // A bound, not a speed: the FIFO used to block for good. The refusals take milliseconds,
        // but a loaded machine running the whole suite has kept this call waiting over 5 s.
        let summary = try await withAsyncDeadline(seconds: 30) {
            try await library.covers.fetchMissing(options: Self.options)
        }

        #expect(summary?.stored.isEmpty == true)
        #expect(summary?.failures == zip(ids, urls).map {
            CoverFetchSummary.Failure(albumID: $0, url: $1, reason: "refused: only http and https URLs are downloaded")
        })
        #expect(try library.covers.stats().imageCount == 0)
    }

    @Test func observersGetAChangeSetPerStoredCover() async throws {
        let server = try LocalHTTPServer(Self.routes)
        defer { server.stop() }
        let (library, ids) = try library(urls: [server.url("/ok.png"), server.url("/moved")])
        var changes = library.changes.makeAsyncIterator()

        _ = try await library.covers.fetchMissing(options: Self.options)

        var seen: Set<Int64> = []
        for _ in ids {
            let set = await changes.next()
            #expect(set?.tables["covers"]?.inserted.count == 1)
            seen.formUnion(set?.tables["covers"]?.inserted.map { $0 } ?? [])
        }
        #expect(seen == Set(ids))
    }
}
