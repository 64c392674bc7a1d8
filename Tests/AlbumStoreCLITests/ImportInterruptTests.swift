import Foundation
import TestSupport
import Testing

/// Ctrl-C during `albumstore import`, of a catalog or a music folder: one line saying nothing was
/// imported, exit 130, the library as it was, and no write-ahead log full of the rolled-back
/// rows left beside it.
@Suite(.enabled(if: PseudoTerminal.isAvailable, "needs python3 for a pseudo-terminal"))
struct ImportInterruptTests {
    /// Writes a CSV of `rows` albums to argv[1], runs argv[3...] with stderr on a pseudo-terminal
    /// (so that the import draws its progress), sends SIGINT once the progress shows at least
    /// argv[2] rows (enough for the rows to spill from SQLite's cache into the log), and prints
    /// what the import wrote to stderr, then `exit=STATUS` (or the signal that killed it). An
    /// alarm ends it if nothing comes.
    private static let script = """
        import os, pty, re, signal, subprocess, sys
        signal.alarm(60)
        path, rows = sys.argv[1], int(sys.argv[2])
        with open(path, "w") as f:
            f.write("title,artist\\n")
            f.writelines("Title %d,Artist %d\\n" % (n, n % 1000) for n in range(rows * 4))
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
            if not sent and any(int(n) >= rows for n in re.findall(rb"(\\d+) rows, ", output)):
                child.send_signal(signal.SIGINT)
                sent = True
        status = child.wait()
        sys.stdout.buffer.write(output)
        sys.stdout.write("exit=%d" % status if status >= 0 else "killed by signal %d" % -status)
        """

    @Test func ctrlCRollsBackSaysSoExits130AndLeavesNoLog() throws {
        let store = try AlbumStoreFixture()
        try store.add("Homogenic", by: "Björk")
        let before = try store.snapshot()
        let file = store.cli.path("big.csv")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, file, "50000", store.cli.binary.path, "import", file]
        process.environment = store.cli.environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(text.hasSuffix("\r\u{1B}[Kalbumstore: import interrupted; nothing was imported\r\nexit=130"), "\(text.suffix(300))")
        // Looked at before any other command opens the library (its close would remove the log).
        let log = (try? FileManager.default.attributesOfItem(atPath: store.db + "-wal")[.size] as? Int) ?? 0
        #expect(log < 1 << 20, "a -wal of \(log) bytes was left")
        #expect(try store.snapshot() == before)
    }

    /// Runs argv[2...] with stderr on a pseudo-terminal, sends SIGINT once the progress line shows
    /// at least argv[1] files read, and prints what it wrote to stderr, then `exit=STATUS`.
    private static let folderScript = """
        import os, pty, re, signal, subprocess, sys
        signal.alarm(60)
        files = int(sys.argv[1])
        primary, secondary = pty.openpty()
        child = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=secondary)
        os.close(secondary)
        output, sent = b"", False
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
            if not sent and any(int(n) >= files for n in re.findall(rb"(\\d+) of [\\d,]+ files read", output)):
                child.send_signal(signal.SIGINT)
                sent = True
        status = child.wait()
        sys.stdout.buffer.write(output)
        sys.stdout.write("exit=%d" % status if status >= 0 else "killed by signal %d" % -status)
        """

    @Test func ctrlCDuringAFolderScanImportsNothing() throws {
        let store = try AlbumStoreFixture()
        try store.add("Homogenic", by: "Björk")
        let before = try store.snapshot()
        let tree = store.cli.path("Music")
        try MusicTree.run([
            "python3", MusicTree.repository.appendingPathComponent("scripts/make-music-tree").path, "bench", tree,
            "--albums", "400", "--tracks", "5",
        ])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.folderScript, "64", store.cli.binary.path, "import", tree]
        process.environment = store.cli.environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(text.contains("files read"), "\(text.suffix(300))")
        #expect(text.hasSuffix("\r\u{1B}[Kalbumstore: import interrupted; nothing was imported\r\nexit=130"), "\(text.suffix(300))")
        #expect(try store.snapshot() == before)
    }
}
