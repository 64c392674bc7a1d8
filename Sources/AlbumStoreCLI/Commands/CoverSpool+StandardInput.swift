import AlbumStore
import Foundation

extension CoverSpool {
    /// stdin copied to a spool, capped as it is read.
    static func standardInput(limit: Int) throws -> CoverSpool {
        let spool = try CoverSpool()
        do {
            let output = try spool.writer()
            defer { try? output.close() }
            var count = 0
            while let chunk = try FileHandle.standardInput.read(upToCount: 256 * 1024), !chunk.isEmpty {
                count += chunk.count
                if count > limit { throw CoverError.tooLarge(source: "stdin", limit: limit) }
                try output.write(contentsOf: chunk)
            }
        } catch {
            spool.remove()
            if let error = error as? CoverError { throw error }
            throw CoverError.file(path: "stdin", reason: "cannot be read")
        }
        return spool
    }
}
