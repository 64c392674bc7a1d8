import AlbumStore
import Foundation

/// stdin copied to a private temporary file, capped as it is read: a cover is hashed before it
/// is stored, and stdin can be read only once.
struct StdinSpool {
    let url: URL

    init(limit: Int) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("albumstore-cover-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let output = try? FileHandle(forWritingTo: url) else {
            throw CoverError.file(path: url.path, reason: "cannot create a temporary file")
        }
        defer { try? output.close() }
        var count = 0
        do {
            while let chunk = try FileHandle.standardInput.read(upToCount: 256 * 1024), !chunk.isEmpty {
                count += chunk.count
                if count > limit { throw CoverError.tooLarge(source: "stdin", limit: limit) }
                try output.write(contentsOf: chunk)
            }
        } catch {
            remove()
            if let error = error as? CoverError { throw error }
            throw CoverError.file(path: "stdin", reason: "cannot be read")
        }
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
