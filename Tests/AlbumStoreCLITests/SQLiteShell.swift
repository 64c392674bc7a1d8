import Foundation

/// The `sqlite3` command-line shell, another program working on a library file.
enum SQLiteShell {
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { "sqlite3 failed: \(message)" }
    }

    /// Runs `sql` on the file at `path` and returns what the shell printed.
    @discardableResult
    static func run(_ sql: String, on path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", "-bail", path, sql]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(message: String(decoding: message, as: UTF8.self)) }
        return String(decoding: printed, as: UTF8.self)
    }

    /// A `sqlite3` process holding the write lock of `path` (`BEGIN IMMEDIATE`) until released.
    final class WriteLock {
        private let process = Process()
        private let input = Pipe()
        private let output = Pipe()

        init(on path: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["sqlite3", path]
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            input.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\nSELECT 'held';\n".utf8))
            // The shell answers only once the lock is held.
            var heard = Data()
            while !String(decoding: heard, as: UTF8.self).contains("held") {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { throw Failure(message: "the shell ended before taking the lock") }
                heard += chunk
            }
        }

        func release() {
            guard process.isRunning else { return }
            input.fileHandleForWriting.write(Data("ROLLBACK;\n".utf8))
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        deinit { release() }
    }
}
