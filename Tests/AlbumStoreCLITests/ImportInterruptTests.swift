import Foundation
import TestSupport
import Testing

/// Ctrl-C during `albumstore import`, of a catalog or a music folder: one line saying nothing was
/// imported, exit 130, the library as it was, and no write-ahead log full of the rolled-back
/// rows left beside it.
@Suite(.enabled(if: PseudoTerminal.isAvailable, "needs python3 for a pseudo-terminal"))
struct ImportInterruptTests {
    /// Runs argv[3...] with stderr on a pseudo-terminal (so that the import draws its progress),
    /// sends SIGINT once the progress shows at least argv[2] of what the pattern argv[1] counts
    /// (its one group), and prints what the import wrote to stderr, then `exit=STATUS` (or the
    /// signal that killed it). An alarm ends it if nothing comes.
    private static let script = """
        import os, pty, re, signal, subprocess, sys
        signal.alarm(60)
        pattern, threshold = re.compile(sys.argv[1].encode()), int(sys.argv[2])
        primary, secondary = pty.openpty()
        child = subprocess.Popen(sys.argv[3:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=secondary)
        os.close(secondary)
        output, sent = b"", False
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            output += chunk
            if not sent and any(int(n) >= threshold for n in pattern.findall(output)):
                child.send_signal(signal.SIGINT)
                sent = True
        status = child.wait()
        sys.stdout.buffer.write(output)
        sys.stdout.write("exit=%d" % status if status >= 0 else "killed by signal %d" % -status)
        """

    /// `albumstore import source` interrupted once its progress counts `threshold` by `pattern`;
    /// what it wrote to stderr and its exit.
    private func interrupt(_ store: AlbumStoreFixture, importing source: String, at threshold: Int, counted pattern: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, pattern, "\(threshold)", store.cli.binary.path, "import", source]
        process.environment = store.cli.environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    @Test func ctrlCRollsBackSaysSoExits130AndLeavesNoLog() throws {
        let store = try AlbumStoreFixture()
        try store.add("Homogenic", by: "Björk")
        let before = try store.snapshot()
        // Interrupted after 50,000 of 200,000 rows: enough for them to spill from SQLite's cache
        // into the log.
        let file = store.cli.path("big.csv")
        let rows = (0..<200_000).map { "Title \($0),Artist \($0 % 1000)\n" }
        try ("title,artist\n" + rows.joined()).write(toFile: file, atomically: true, encoding: .utf8)

        let text = try interrupt(store, importing: file, at: 50_000, counted: #"(\d+) rows, "#)

        #expect(text.hasSuffix("\r\u{1B}[Kalbumstore: import interrupted; nothing was imported\r\nexit=130"), "\(text.suffix(300))")
        // Looked at before any other command opens the library (its close would remove the log).
        let log = (try? FileManager.default.attributesOfItem(atPath: store.db + "-wal")[.size] as? Int) ?? 0
        #expect(log < 1 << 20, "a -wal of \(log) bytes was left")
        #expect(try store.snapshot() == before)
    }

    @Test func ctrlCDuringAFolderScanImportsNothing() throws {
        let store = try AlbumStoreFixture()
        try store.add("Homogenic", by: "Björk")
        let before = try store.snapshot()
        let tree = store.cli.path("Music")
        try MusicTree.run([
            "python3", MusicTree.repository.appendingPathComponent("scripts/make-music-tree").path, "bench", tree,
            "--albums", "400", "--tracks", "5",
        ])

        let text = try interrupt(store, importing: tree, at: 64, counted: #"(\d+) of [\d,]+ files read"#)

        #expect(text.contains("files read"), "\(text.suffix(300))")
        #expect(text.hasSuffix("\r\u{1B}[Kalbumstore: import interrupted; nothing was imported\r\nexit=130"), "\(text.suffix(300))")
        #expect(try store.snapshot() == before)
    }
}
