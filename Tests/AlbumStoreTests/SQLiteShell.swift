import Foundation

/// The `sqlite3` command-line shell run on a library file, as a user would run it: another
/// process, with SQLite's own defaults (no recursive_triggers, no AlbumStore code at all).
enum SQLiteShell {
    struct Failure: Error, CustomStringConvertible {
        var status: Int32
        var message: String
        var description: String { "sqlite3 exited with \(status): \(message)" }
    }

    /// Runs `sql` on the file at `path`; throws when the shell reports an error.
    static func run(_ sql: String, on path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // -bail: stop at the first error and exit non-zero; a busy timeout like the library's.
        process.arguments = ["sqlite3", "-bail", "-cmd", ".timeout 5000", path, sql]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Read before waiting: a full pipe would otherwise block the shell and this test.
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(status: process.terminationStatus, message: String(decoding: message, as: UTF8.self))
        }
    }
}
