import Foundation

/// A fresh folder under the system's temporary directory, removed with everything in it when the
/// value goes away.
///
/// Keep it in a stored property of the suite: Swift Testing makes one suite instance per test,
/// so every test gets its own folder, and it outlives the connections the test opens.
public final class TemporaryDirectory: Sendable {
    /// The folder.
    public let url: URL

    /// Creates the folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("albumstore-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A file inside the folder.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The path of a file inside the folder.
    public func path(_ name: String) -> String { file(name).path }
}
