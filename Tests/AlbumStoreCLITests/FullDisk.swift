import Foundation
import Testing

/// Runs `albumstore` commands on a library in a small file system that is then filled up: a
/// tmpfs mounted in a mount namespace of its own (`unshare -r -m`), which no other process sees
/// and which goes away with the namespace, so the machine's disks are never filled.
///
/// `unshare -r` maps the caller to root in a new user namespace, which may mount a tmpfs: no real
/// root needed where the kernel allows unprivileged user namespaces. Where it does not (and the
/// tests do not run as root), the tests that need a full disk are disabled, with `reason`.
enum FullDisk {
    static let unshare: String? = ["/usr/bin/unshare", "/bin/unshare"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Whether a tmpfs can be mounted in a new namespace here.
    static let isAvailable: Bool = {
        guard let unshare else { return false }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("albumstore-mount-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: unshare)
        process.arguments = ["-r", "-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs \"$0\"", folder.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    static let reason: Comment = "cannot mount a tmpfs in a new user and mount namespace here (unshare -r -m): no way to fill a disk safely"

    /// In a namespace of its own: mounts a tmpfs of `size` on `folder`, runs `setUp` (shell
    /// commands, `$ALBUMSTORE` the binary), fills the tmpfs to the last byte, then runs each of
    /// `commands` and returns what each did.
    static func run(_ cli: CLI, folder: String, size: String, setUp: String, commands: [[String]]) throws -> [CLI.Result] {
        let results = URL(fileURLWithPath: cli.path("full-disk-results-\(UUID().uuidString)"))
        try FileManager.default.createDirectory(at: results, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: results) }
        var script = """
            set -e
            mount -t tmpfs -o size=\(size) tmpfs "$FOLDER"
            \(setUp)
            dd if=/dev/zero of="$FOLDER/filler" bs=4096 2>/dev/null || true
            dd if=/dev/zero of="$FOLDER/filler-tail" bs=1 2>/dev/null || true
            set +e

            """
        for (index, arguments) in commands.enumerated() {
            let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            script += "\"$ALBUMSTORE\" \(quoted) >\"$RESULTS/\(index).out\" 2>\"$RESULTS/\(index).err\"; echo $? >\"$RESULTS/\(index).status\"\n"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(unshare))
        process.arguments = ["-r", "-m", "sh", "-c", script]
        process.currentDirectoryURL = cli.directory
        process.environment = cli.environment.merging(
            ["FOLDER": folder, "RESULTS": results.path, "ALBUMSTORE": cli.binary.path]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let setUpErrors = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "set-up failed: \(String(decoding: setUpErrors, as: UTF8.self))")
        return try commands.indices.map { index in
            func read(_ suffix: String) throws -> String {
                try String(contentsOf: results.appendingPathComponent("\(index).\(suffix)"), encoding: .utf8)
            }
            let status = try #require(Int32(read("status").trimmingCharacters(in: .whitespacesAndNewlines)))
            return CLI.Result(status: status, stdout: try read("out"), stderr: try read("err"))
        }
    }
}
