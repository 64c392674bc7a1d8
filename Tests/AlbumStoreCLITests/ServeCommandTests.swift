import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization
import Testing

/// `albumstore serve` as a user runs it: the address it prints, another process's change on the
/// live event stream, Ctrl-C with a browser still listening, and its refusals.
struct ServeCommandTests {
    /// A library with one album, served on a free port; the server's address.
    private func serve(_ cli: CLI) throws -> (BackgroundProcess, String) {
        try cli.run(["--db", cli.path("lib.sqlite"), "add", "--title", "Low", "--artist", "David Bowie"])
        let server = try BackgroundProcess(
            binary: cli.binary, arguments: ["--db", cli.path("lib.sqlite"), "serve", "--port", "0"],
            environment: cli.environment, directory: cli.directory)
        #expect(server.wait { server.stdoutLines.contains { $0.contains("http://127.0.0.1:") } })
        let line = try #require(server.stdoutLines.first)
        #expect(line.hasPrefix("Serving \(cli.path("lib.sqlite")) at http://127.0.0.1:") && line.hasSuffix("/ (Ctrl-C stops it)"))
        let address = String(try #require(line.split(separator: " ").first { $0.hasPrefix("http://") }))
        return (server, address)
    }

    /// Reads the stream of `response`, giving `step` all the text so far after each chunk, until
    /// `step` says it is done; at most 10 s. Returns the text.
    private func read(_ response: HTTPClientResponse, _ step: @escaping @Sendable (String) throws -> Bool) async throws -> String {
        try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                var text = ""
                for try await chunk in response.body {
                    text += String(buffer: chunk)
                    if try step(text) { return text }
                }
                return text
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return nil
            }
            let text = try await group.next() ?? nil
            group.cancelAll()
            return text ?? "(not done within 10 s)"
        }
    }

    @Test func anotherProcesssChangeReachesTheEventStreamAndCtrlCStopsTheServer() async throws {
        let cli = try CLI()
        let (server, address) = try serve(cli)
        let client = HTTPClient()
        do {
            let response = try await client.execute(HTTPClientRequest(url: address + "api/events"), timeout: .seconds(10))
            #expect(response.status == .ok && response.headers.first(name: "Content-Type") == "text/event-stream")
            let db = cli.path("lib.sqlite"), binary = cli.binary.path
            let added = Mutex(false)
            let text = try await read(response) { text in
                // Listening (the first comment): another process adds an album, once.
                if text.hasPrefix(": keep-alive\n\n"), !added.withLock({ added in defer { added = true }; return added }) {
                    let add = Process()
                    add.executableURL = URL(fileURLWithPath: binary)
                    add.arguments = ["--db", db, "add", "--title", "Heroes", "--artist", "David Bowie"]
                    try add.run()
                    add.waitUntilExit()
                }
                return text.contains("event: change") && text.hasSuffix("\n\n")
            }
            // After the comments (one, or more on a slow machine), the change.
            let change = try #require(text.range(of: "event: change"))
            let events = String(text[change.lowerBound...])
            #expect(events.hasPrefix("event: change\ndata: {"), "\(events)")
            #expect(events.contains(#""albums":{"deleted":[],"inserted":[2],"updated":[]}"#), "\(events)")
            // Ctrl-C while the browser still listens: the stream ends and the server exits 0.
            #expect(server.interrupt() == 0)
            #expect(server.stderrText.isEmpty, "\(server.stderrText)")
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    @Test func openWithoutABrowserToOpenSaysWhereThePageIsInOneLine() throws {
        let cli = try CLI()
        try cli.run(["--db", cli.path("lib.sqlite"), "init"])
        // A failing xdg-open as a desktop without a browser has: it explains itself at length.
        let tools = cli.directory.appendingPathComponent("tools")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        let fake = tools.appendingPathComponent("xdg-open")
        try "#!/bin/sh\nfor n in 1 2 3 4 5 6 7 8; do echo \"xdg-open: line $n\" >&2; done\nexit 3\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        var desktop = cli.environment
        desktop["DISPLAY"] = ":99"
        desktop["PATH"] = tools.path + ":" + (desktop["PATH"] ?? "/usr/bin:/bin")
        var headless = cli.environment
        headless["DISPLAY"] = nil
        headless["WAYLAND_DISPLAY"] = nil
        for (environment, said) in [(desktop, "xdg-open could not open a browser: the page is at "),
                                    (headless, "No desktop to open a browser on (no DISPLAY or WAYLAND_DISPLAY): the page is at ")] {
            let server = try BackgroundProcess(
                binary: cli.binary, arguments: ["--db", cli.path("lib.sqlite"), "serve", "--port", "0", "--open"],
                environment: environment, directory: cli.directory)
            #expect(server.wait { server.stderrText.hasSuffix("/\n") })
            let address = try #require(server.stdoutLines.first?.split(separator: " ").first { $0.hasPrefix("http://") })
            #expect(server.stderrText == said + address + "\n")
            #expect(server.interrupt() == 0)
        }
    }

    @Test func aPortInUseAndAMissingLibraryAreOneLineErrors() throws {
        let cli = try CLI()
        let (server, address) = try serve(cli)
        let port = try #require(address.split(separator: ":").last?.dropLast())
        let second = try cli.run(["--db", cli.path("lib.sqlite"), "serve", "--port", String(port)])
        #expect(second.status == 1)
        #expect(second.stderr == "albumstore: port \(port) is in use on 127.0.0.1 (--port picks another, --port 0 any free one)\n")
        #expect(server.interrupt() == 0)
        let missing = try cli.run(["--db", cli.path("none.sqlite"), "serve", "--port", "0"])
        #expect(missing.status == 1 && missing.stderr.hasPrefix("albumstore: no library at"))
        #expect(!FileManager.default.fileExists(atPath: cli.path("none.sqlite")))
        let badPort = try cli.run(["--db", cli.path("lib.sqlite"), "serve", "--port", "70000"])
        #expect(badPort.status == 2 && badPort.stderr.contains("--port: 70000 is not between 0 and 65535"))
    }
}
