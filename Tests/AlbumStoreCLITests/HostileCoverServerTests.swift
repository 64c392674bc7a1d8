import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `covers fetch` against a cover host that misbehaves on purpose (`HostileHTTPServer`): every
/// answer ends as one clear failure of its album, in bounded time and memory, and the batch goes on.
@Suite(.enabled(if: HostileHTTPServer.isAvailable, "needs python3 for a loopback HTTP server"))
struct HostileCoverServerTests {
    let store: AlbumStoreFixture
    let server: HostileHTTPServer

    init() throws {
        store = try AlbumStoreFixture()
        server = try HostileHTTPServer()
    }

    /// Runs `covers fetch` with one attempt, a 1 s timeout and `maxBytes`; nil status when it
    /// does not end within `limit`.
    private func fetch(maxBytes: Int = 4_000_000, limit: Duration = .seconds(10)) throws -> (status: Int32?, stderr: String) {
        let fetch = try BackgroundProcess(
            binary: store.cli.binary,
            arguments: ["covers", "fetch", "--timeout", "1", "--attempts", "1", "--max-bytes", String(maxBytes)],
            environment: store.cli.environment, directory: store.cli.directory)
        let status = fetch.exitStatus(timeout: limit)
        _ = fetch.wait(timeout: .seconds(1)) { fetch.stderrText.hasSuffix("\n") }
        return (status, fetch.stderrText)
    }

    @Test func eachHostileAnswerIsOneFailureOfItsAlbumAndTheGoodCoverIsStored() throws {
        let good = try store.add("Good", by: "X", "--cover-url", server.url("/good.gif"))
        let cases: [(path: String, reason: String)] = [
            ("/to-file", "redirected to a URL that is not http or https"),
            ("/loop", "too many redirects (more than 5)"),
            // Only the first 16 bytes are the body: the rest is not read.
            ("/longer", "not a PNG, JPEG, GIF or WebP image"),
            ("/endless", "larger than the cover size cap of 4000000 bytes"),
            ("/stall", "timed out"),
            ("/gzip-bomb", "not a PNG, JPEG, GIF or WebP image"),
            ("/html", "content type text/html is not an image"),
            ("/png-html", "not a PNG, JPEG, GIF or WebP image"),
        ]
        var expected: [String] = []
        for (path, reason) in cases {
            let album = try store.add(path, by: "X", "--cover-url", server.url(path))
            expected.append("  album \(album.id): \(server.url(path)): \(reason)")
        }
        let start = ContinuousClock.now

        let (status, stderr) = try fetch()

        #expect(status == 1, "did not end in time: \(stderr)")
        #expect(ContinuousClock.now - start < .seconds(8))
        let lines = stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "Fetched 1 cover; 8 failed; 0 albums have no cover URL.")
        for line in expected {
            #expect(lines.contains(line), "no \(line) in:\n\(stderr)")
        }
        #expect(lines.count == 1 + cases.count)
        #expect(try store.run("covers", "get", String(good.id)).stdout == CoversCommandTests.gif)
    }

    /// A 10 GB stream is cut at the cap as it arrives, and a gzip bomb is stored as the bytes it
    /// is, never inflated: neither costs more memory than fetching a tiny cover.
    @Test func anEndlessStreamAndAGzipBombKeepMemoryBounded() throws {
        try store.add("Good", by: "X", "--cover-url", server.url("/good.gif"))
        let baseline = try store.cli.runMeasuringPeakMemory(["covers", "fetch", "--attempts", "1"])
        try store.add("Endless", by: "X", "--cover-url", server.url("/endless"))
        try store.add("Bomb", by: "X", "--cover-url", server.url("/gzip-bomb"))

        let hostile = try store.cli.runMeasuringPeakMemory(["covers", "fetch", "--attempts", "1", "--max-bytes", "8000000"])

        #expect(baseline.status == 0 && hostile.status == 1)
        #expect(hostile.maxRSSKiB - baseline.maxRSSKiB < 8 * 1024, "\(baseline.maxRSSKiB) KiB, then \(hostile.maxRSSKiB) KiB")
    }

    /// Whatever a catalog or another program put in a cover URL, only http and https are
    /// downloaded: the rest is a failure of its album, and the file it names is never opened
    /// (a FIFO would block the open, /dev/zero would never end).
    @Test func urlsThatAreNotHTTPAreRefusedUnopened() throws {
        let fifo = store.cli.path("cover.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let urls = ["file://" + fifo, "file:///dev/zero", "ftp://127.0.0.1/cover.png", "data:image/gif;base64,R0lGODlh", fifo, "/etc/passwd"]
        var albums: [Int64] = []
        for url in urls {
            let album = try store.add(url, by: "X")
            // Set behind the CLI's back, as another program could: `add` refuses some of them.
            try SQLiteShell.run("UPDATE albums SET cover_url = '\(url)' WHERE id = \(album.id)", on: store.db)
            albums.append(album.id)
        }

        let (status, stderr) = try fetch()

        #expect(status == 1, "did not end in time: \(stderr)")
        let lines = stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "Fetched 0 covers; 6 failed; 0 albums have no cover URL.")
        for (album, url) in zip(albums, urls) {
            #expect(lines.contains("  album \(album): \(url): refused: only http and https URLs are downloaded"), "\(stderr)")
        }
    }
}
