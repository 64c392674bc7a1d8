import Foundation

/// Runs `albumstore` with its stdout on a real pseudo-terminal of a given size, as a person at a
/// terminal would, through Python's `pty` module (Foundation has no pty API).
///
/// Python sizes the terminal (`TIOCSWINSZ`) before starting the binary, reads everything the
/// binary writes until it exits, and passes stderr through a pipe. The terminal's output post-
/// processing turns each line feed into CR LF; `run` turns them back.
enum PseudoTerminal {
    /// Whether `python3` is there to open one.
    static let isAvailable: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import pty, fcntl, termios"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    private static let script = """
        import fcntl, os, pty, struct, subprocess, sys, termios
        columns = int(sys.argv[1])
        primary, secondary = pty.openpty()
        fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
        child = subprocess.Popen(sys.argv[2:], stdin=secondary, stdout=secondary, stderr=subprocess.PIPE)
        os.close(secondary)
        output = b""
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            output += chunk
        errors = child.stderr.read()
        sys.stdout.buffer.write(output)
        sys.stderr.buffer.write(errors)
        sys.exit(child.wait())
        """

    /// Runs the CLI's binary with `arguments` on a terminal `columns` wide (0: a terminal that
    /// does not say its size), in the CLI's folder and environment plus `environment`.
    static func run(_ cli: CLI, _ arguments: [String], columns: Int, environment: [String: String] = [:]) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, String(columns), cli.binary.path] + arguments
        process.currentDirectoryURL = cli.directory
        process.environment = cli.environment.merging(environment) { $1 }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLI.Result(status: process.terminationStatus,
                          stdout: String(decoding: out, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"),
                          stderr: String(decoding: err, as: UTF8.self))
    }
}
