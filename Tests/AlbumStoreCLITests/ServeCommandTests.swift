import Foundation
import HTTPTypes
import NIOCore
import TestSupport
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

    @Test func anotherProcesssChangeReachesTheEventStreamAndCtrlCStopsTheServer() async throws {
        let cli = try CLI()
        let (server, address) = try serve(cli)
        let port = try #require(Int(address.split(separator: ":").last?.dropLast() ?? ""))
        let db = cli.path("lib.sqlite"), binary = cli.binary.path
        var text = ""
        var added = false
        var stopped: Int32?
        // Reads the stream as it comes until the change, at most 20 s.
        let response = try await HTTPTestClient(port: port).send(uri: "/api/events") { part in
            text += String(buffer: part)
            // Listening (the first comment): another process adds an album, once.
            if text.hasPrefix(": keep-alive\n\n"), !added {
                added = true
                let add = Process()
                add.executableURL = URL(fileURLWithPath: binary)
                add.arguments = ["--db", db, "add", "--title", "Heroes", "--artist", "David Bowie"]
                try add.run()
                add.waitUntilExit()
            }
            guard text.contains("event: change") && text.hasSuffix("\n\n") else { return false }
            // Ctrl-C while the browser still listens: the stream ends and the server exits 0.
            stopped = server.interrupt()
            return true
        }
        #expect(response.status == .ok && response.headerFields[.contentType] == "text/event-stream")
        // After the comments (one, or more on a slow machine), the change.
        let change = try #require(text.range(of: "event: change"))
        let events = String(text[change.lowerBound...])
        #expect(events.hasPrefix("event: change\ndata: {"), "\(events)")
        #expect(events.contains(#""albums":{"deleted":[],"inserted":[2],"updated":[]}"#), "\(events)")
        #expect(stopped == 0)
        #expect(server.stderrText.isEmpty, "\(server.stderrText)")
        // The server's connections were the file's last: SQLite removed its log and index.
        for leftover in ["lib.sqlite-wal", "lib.sqlite-shm"] {
            #expect(!FileManager.default.fileExists(atPath: cli.path(leftover)), "\(leftover) left behind")
        }
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
