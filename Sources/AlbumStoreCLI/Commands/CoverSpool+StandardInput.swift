import AlbumStore
import FoundationEssentials

extension CoverSpool {
    /// stdin copied to a spool, capped as it is read.
    static func standardInput(limit: Int) throws -> CoverSpool {
        let spool = try CoverSpool()
        do {
            let output = try spool.writer().sink()
            let input = OpenFile.standardInput
            var count = 0
            while case let chunk = try input.read(upToCount: 256 * 1024), !chunk.isEmpty {
                count += chunk.count
                if count > limit { throw CoverError.tooLarge(source: "stdin", limit: limit) }
                try chunk.withUnsafeBytes { try output.write($0) }
            }
            try output.flush()
        } catch {
            spool.remove()
            if let error = error as? CoverError { throw error }
            throw CoverError.file(path: "stdin", reason: "cannot be read")
        }
        return spool
    }
}
