import Foundation
import AlbumSQLite

/// A fresh directory under the system's temporary directory, removed with everything in it
/// when the value goes away.
///
/// Keep it in a stored property of the suite: Swift Testing makes one suite instance per test,
/// so every test gets its own directory, and it outlives the connections the test opens.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLiteTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the directory.
    func path(_ name: String = "test.sqlite") -> String {
        url.appendingPathComponent(name).path
    }

    /// Opens (creating it if needed) the database file `name` inside the directory.
    func open(_ name: String = "test.sqlite", options: ConnectionOptions = .default) throws -> Connection {
        try Connection(path: path(name), options: options)
    }
}
