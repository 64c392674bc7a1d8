import Foundation

/// A fresh folder under the system's temporary directory, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("albumstore-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A path inside the folder.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}
