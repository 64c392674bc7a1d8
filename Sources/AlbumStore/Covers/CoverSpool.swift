import FoundationEssentials

/// A private temporary file (mode 0600) that a cover's bytes are written to as they arrive,
/// from a download or from stdin, so that memory does not grow with the image: a cover is
/// hashed before it is stored, and neither source can be read twice. Store it with
/// `CoverSource.file(spool.url, name:)`, then `remove()` it.
package struct CoverSpool: Sendable {
    package let url: URL

    /// Creates an empty spool file.
    /// - Throws: `CoverError.file` when the temporary folder does not take it.
    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("albumstore-cover-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CoverError.file(path: url.path, reason: "cannot create a temporary file")
        }
    }

    /// The spool opened for writing (emptied first), closed when the value goes away.
    package func writer() throws -> OpenFile {
        do {
            return try OpenFile.writing(url.path, permissions: 0o600)
        } catch {
            throw CoverError.file(path: url.path, reason: "cannot write a temporary file")
        }
    }

    package func remove() { try? FileManager.default.removeItem(at: url) }
}
