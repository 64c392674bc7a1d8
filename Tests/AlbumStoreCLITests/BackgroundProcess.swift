import Foundation
import Synchronization

/// A long-running `albumstore` process (e.g. `watch`) whose output is read as it comes.
final class BackgroundProcess {
    private let process: Process
    private let stdout = Pipe()
    private let stderr = Pipe()
    private let output = Output()

    init(binary: URL, arguments: [String], environment: [String: String], directory: URL) throws {
        process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = directory
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        stdout.fileHandleForReading.readabilityHandler = { [output] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.text.withLock { $0.stdout += text }
        }
        stderr.fileHandleForReading.readabilityHandler = { [output] handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            output.text.withLock { $0.stderr += text }
        }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var stdoutLines: [String] { output.text.withLock { $0.stdout }.split(separator: "\n").map(String.init) }
    var stderrText: String { output.text.withLock { $0.stderr } }

    /// Waits until `condition` holds or `timeout` passes; returns whether it held.
    func wait(timeout: Duration = .seconds(10), until condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return condition()
    }

    /// Sends SIGINT and waits for the exit status (nil if it does not exit in time).
    func interrupt() -> Int32? {
        kill(process.processIdentifier, SIGINT)
        return exitStatus()
    }

    /// Sends SIGKILL, which no process can catch (a crash, a power cut for its transaction),
    /// and waits for it to end; returns whether it did.
    func killHard() -> Bool {
        kill(process.processIdentifier, SIGKILL)
        return exitStatus() != nil
    }

    /// Closes our end of its stdout, so its next write finds no reader.
    func closeStdout() {
        stdout.fileHandleForReading.readabilityHandler = nil
        try? stdout.fileHandleForReading.close()
    }

    /// Whether the process has the file at the absolute `path` open, from `/proc/PID/fd`; `nil`
    /// where there is no /proc.
    func hasOpen(_ path: String) -> Bool? {
        let folder = "/proc/\(process.processIdentifier)/fd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        return names.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)) == path }
    }

    /// The CPU time (user and system, every thread) the process has used so far, from
    /// `/proc/PID/stat`, in clock ticks of 10 ms; `nil` where there is no /proc or it has exited.
    var cpuTime: Duration? {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        // After "pid (name) ": state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        return .seconds(Double(user + system) / Double(ticksPerSecond))
    }

    func exitStatus(timeout: Duration = .seconds(10)) -> Int32? {
        wait(timeout: timeout) { !process.isRunning } ? process.terminationStatus : nil
    }
}

/// What the process printed so far, filled from the pipes' handler threads.
private final class Output: Sendable {
    let text = Mutex((stdout: "", stderr: ""))
}
