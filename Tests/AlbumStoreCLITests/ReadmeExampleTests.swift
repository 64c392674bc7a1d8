import Foundation
import Testing

/// The README's example block runs as is, in order, on an empty library: the README cannot drift
/// from the tool.
struct ReadmeExampleTests {
    let cli: CLI

    init() throws { cli = try CLI() }

    /// The commands of the block the README marks as run by this test, continuation lines joined.
    static func exampleCommands() throws -> [String] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let marker = text.range(of: "ReadmeExampleTests runs it. -->\n```sh\n"),
              let end = text.range(of: "\n```", range: marker.upperBound..<text.endIndex)
        else { return [] }
        return text[marker.upperBound..<end.lowerBound]
            .replacingOccurrences(of: "\\\n", with: " ")
            .split(separator: "\n")
            .map { String($0) }
            .filter { $0.hasPrefix("albumstore") }
    }

    @Test func theREADMEExampleBlockRunsOnAnEmptyLibrary() throws {
        let commands = try Self.exampleCommands()
        #expect(commands.count > 20)
        let bin = cli.directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("albumstore"), withDestinationURL: cli.binary)
        let environment = [
            "ALBUMSTORE_DB": cli.path("readme.sqlite"),
            "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        ]
        for command in commands {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            process.environment = cli.environment.merging(environment) { $1 }
            let stderr = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = stderr
            try process.run()
            let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "`\(command)` failed: \(message)")
        }
    }
}
