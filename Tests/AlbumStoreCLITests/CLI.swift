import Foundation

/// Runs the built `albumstore` binary as a user would, in a temporary folder of its own.
final class CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The binary SwiftPM built beside this test bundle.
    static let builtBinary: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On Linux the test runner is the .xctest file itself; on macOS it is inside the bundle.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("albumstore").path),
              folder.pathComponents.count > 1 {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("albumstore")
    }()

    let directory: URL
    let binary: URL
    /// The environment every run gets: HOME and XDG_DATA_HOME inside the folder, no ALBUMSTORE_DB.
    var environment: [String: String]

    init(binary: URL = CLI.builtBinary) throws {
        self.binary = binary
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("albumstore-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory.path
        environment["XDG_DATA_HOME"] = directory.appendingPathComponent("data").path
        environment["ALBUMSTORE_DB"] = nil
        self.environment = environment
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A path inside the folder.
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs `albumstore arguments...` with `input` on stdin and waits for it; `unprivileged`
    /// runs it where file permissions apply (see `Unprivileged`).
    @discardableResult
    func run(
        _ arguments: [String], input: String? = nil, environment extra: [String: String] = [:], unprivileged: Bool = false
    ) throws -> Result {
        let process = Process()
        let (executable, prefix) = unprivileged ? try Unprivileged.command() : (binary.path, [])
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = prefix + (unprivileged ? [binary.path] : []) + arguments
        process.currentDirectoryURL = directory
        process.environment = environment.merging(extra) { $1 }
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        // Read both pipes before waiting, so a full pipe cannot block the child.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    @discardableResult
    func run(_ arguments: String..., input: String? = nil, environment: [String: String] = [:]) throws -> Result {
        try run(arguments, input: input, environment: environment)
    }
}
