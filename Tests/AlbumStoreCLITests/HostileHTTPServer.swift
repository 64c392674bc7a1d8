import Foundation

/// An HTTP server on the loopback interface that answers each path with a way a cover host can
/// misbehave, for `covers fetch` to survive, and serves the files of a folder; Python's
/// `http.server`, started per test and stopped when the value goes away.
///
/// | path           | answer                                                                 |
/// |----------------|------------------------------------------------------------------------|
/// | `/files/NAME`  | the file NAME of the folder given, `application/octet-stream`          |
/// | `/good.gif`    | a small GIF, `image/gif` (proves the server works)                     |
/// | `/to-file`     | 302 to `file:///etc/passwd`                                            |
/// | `/loop`        | 302 to itself, forever                                                 |
/// | `/longer`      | `Content-Length: 16`, then a megabyte                                  |
/// | `/endless`     | `image/png`, no length, a PNG header and then zeros until the client quits (a 10 GB stream) |
/// | `/stall`       | `image/png` headers, then silence                                      |
/// | `/gzip-bomb`   | `image/png`, `Content-Encoding: gzip`: 1 GiB of zeros, gzipped to ~1 MB  |
/// | `/html`        | `text/html`                                                            |
/// | `/png-html`    | `image/png` header, an HTML body                                       |
final class HostileHTTPServer {
    static let isAvailable: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import http.server, gzip"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    private static let script = #"""
        import gzip, http.server, os, socketserver, sys, threading, time

        FOLDER = sys.argv[1]

        GIF = b"GIF89a\x04\x00\x04\x00\x00\x00\x00;"
        PNG_HEAD = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + b"IHDR" + \
            bytes([0, 0, 2, 0x58, 0, 0, 2, 0x58, 8, 2, 0, 0, 0, 0, 0, 0, 0])

        # Concatenated gzip members are one valid stream: 1024 copies of 1 MiB of zeros
        # compressed once make 1 GiB for anyone who inflates them, in about 1 MB.
        BOMB = gzip.compress(bytes(1 << 20), compresslevel=9) * 1024

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *args):
                pass

            def head(self, status, headers):
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()

            def do_GET(self):
                try:
                    self.answer()
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def answer(self):
                path = self.path
                if path.startswith("/files/"):
                    try:
                        with open(os.path.join(FOLDER, os.path.basename(path)), "rb") as file:
                            body = file.read()
                    except OSError:
                        self.head(404, [("Content-Length", "0")])
                        return
                    self.head(200, [("Content-Type", "application/octet-stream"), ("Content-Length", str(len(body)))])
                    self.wfile.write(body)
                elif path == "/good.gif":
                    self.head(200, [("Content-Type", "image/gif"), ("Content-Length", str(len(GIF)))])
                    self.wfile.write(GIF)
                elif path == "/to-file":
                    self.head(302, [("Location", "file:///etc/passwd"), ("Content-Length", "0")])
                elif path == "/loop":
                    self.head(302, [("Location", "/loop"), ("Content-Length", "0")])
                elif path == "/longer":
                    self.head(200, [("Content-Type", "image/png"), ("Content-Length", "16")])
                    self.wfile.write(PNG_HEAD + bytes(1 << 20))
                elif path == "/endless":
                    self.head(200, [("Content-Type", "image/png")])
                    self.wfile.write(PNG_HEAD)
                    zeros = bytes(1 << 16)
                    for _ in range(10 * (1 << 30) // len(zeros)):
                        self.wfile.write(zeros)
                elif path == "/stall":
                    self.head(200, [("Content-Type", "image/png"), ("Content-Length", "100000")])
                    self.wfile.flush()
                    time.sleep(3600)
                elif path == "/gzip-bomb":
                    self.head(200, [("Content-Type", "image/png"), ("Content-Encoding", "gzip"),
                                    ("Content-Length", str(len(BOMB)))])
                    self.wfile.write(BOMB)
                elif path == "/html":
                    body = b"<html><body>not a cover</body></html>"
                    self.head(200, [("Content-Type", "text/html"), ("Content-Length", str(len(body)))])
                    self.wfile.write(body)
                elif path == "/png-html":
                    body = b"<html><body>not a cover either</body></html>"
                    self.head(200, [("Content-Type", "image/png"), ("Content-Length", str(len(body)))])
                    self.wfile.write(body)
                else:
                    self.head(404, [("Content-Length", "0")])

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        server = Server(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        # Ends with its parent: stdin closes when the test's process goes away.
        threading.Thread(target=server.serve_forever, daemon=True).start()
        sys.stdin.read()
        """#

    private let process = Process()
    private let input = Pipe()
    /// `http://127.0.0.1:PORT`.
    let base: String

    /// Starts a server whose `/files/` are the files of `folder`.
    init(serving folder: String = "/nonexistent") throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, folder]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is the port, printed once the socket listens.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line += byte
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else { throw CocoaError(.fileReadCorruptFile) }
        base = "http://127.0.0.1:\(port)"
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

    func url(_ path: String) -> String { base + path }
}
