import Foundation

extension CLI {
    /// Runs `albumstore arguments...` with its stdout going to `output` (a file, `/dev/full`, a
    /// pipe nobody reads), and returns its exit status and what it wrote to stderr.
    func run(_ arguments: [String], stdout output: FileHandle, environment extra: [String: String] = [:]) throws
        -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment.merging(extra) { $1 }
        let stderr = Pipe()
        process.standardOutput = output
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: err, as: UTF8.self))
    }

    /// GNU time, which reports the peak memory of the process it runs.
    static let time = "/usr/bin/time"

    /// Runs `albumstore arguments...` with stdout to /dev/null and returns its exit status and its
    /// peak resident memory in KiB, as `/usr/bin/time -f %M` reports it.
    ///
    /// Not from this process: a child's `ru_maxrss` on Linux starts from the memory of the process
    /// that spawned it (the kernel keeps the old image's peak across `exec`, and `posix_spawn`'s
    /// child runs in its parent's memory until then), so only a small parent such as `time` gives
    /// the command's own peak.
    func runMeasuringPeakMemory(_ arguments: [String], environment extra: [String: String] = [:]) throws
        -> (status: Int32, maxRSSKiB: Int) {
        let report = directory.appendingPathComponent("time-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: report) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.time)
        process.arguments = ["-f", "%M", "-o", report.path, binary.path] + arguments
        process.currentDirectoryURL = directory
        process.environment = environment.merging(extra) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        // The last line; a failed command gets a line saying so before it.
        let text = try String(contentsOf: report, encoding: .utf8)
        let peak = text.split(separator: "\n").last.flatMap { Int($0) } ?? 0
        return (process.terminationStatus, peak)
    }
}
