import Foundation

/// A fresh folder under the system's temporary directory, removed when the value goes away.
/// Shared by the test targets of the library (the SQLite layer's tests have their own, which also
/// opens connections).
public final class TemporaryDirectory {
    /// The folder.
    public let url: URL

    /// Creates the folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("albumstore-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A path inside the folder.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}
