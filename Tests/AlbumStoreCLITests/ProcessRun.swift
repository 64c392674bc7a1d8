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

    /// Runs `albumstore arguments...` with stdout to /dev/null and returns its exit status and
    /// its peak resident memory in KiB (`ru_maxrss` of that process alone, from `wait4`).
    ///
    /// Spawned by hand, not with `Process`: only the parent that waits for a child gets its
    /// resource usage, and `RUSAGE_CHILDREN` would mix in every other child of the test process.
    func runMeasuringPeakMemory(_ arguments: [String], environment extra: [String: String] = [:]) throws
        -> (status: Int32, maxRSSKiB: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.merging(extra) { $1 }.map { strdup("\($0)=\($1)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary.path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        // WIFEXITED / WEXITSTATUS; a signal gives 128 + its number, as a shell says.
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + status & 0x7f
        return (exitStatus, usage.ru_maxrss)
    }
}
