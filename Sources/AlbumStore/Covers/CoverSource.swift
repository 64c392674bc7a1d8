import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a cover's bytes come from, read in chunks so that memory does not grow with the image.
public enum CoverSource: Sendable {
    /// Bytes in memory; `name` says where they came from in error messages.
    case data(Data, name: String = "image")
    /// A regular file, read twice: once to hash it, once to copy it into the store; `name`, when
    /// given, is what errors call it (say "stdin" for a spooled copy of standard input). A FIFO,
    /// device or directory is refused unread: a FIFO would block forever, a device never end.
    case file(URL, name: String? = nil)

    /// The size of the chunks read from a file.
    static let chunkSize = 256 * 1024

    /// How errors name the source.
    var name: String {
        switch self {
        case let .data(_, name): name
        case let .file(url, name): name ?? url.path
        }
    }

    /// Calls `body` with each chunk, in order.
    /// - Throws: `CoverError.file` when the file cannot be read or is not a regular file.
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        switch self {
        case let .data(data, _):
            var offset = 0
            try data.withUnsafeBytes { bytes in
                while offset < bytes.count {
                    let end = min(bytes.count, offset + Self.chunkSize)
                    try body(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                    offset = end
                }
            }
        case let .file(url, _):
            let file: OpenFile
            do {
                file = try OpenFile.readingWithoutWaiting(url.path)
            } catch {
                throw CoverError.file(path: name, reason: "\(error)")
            }
            // Looked at once open, not before: the path may be swapped for a FIFO in between.
            switch FileStatus(fileDescriptor: file.fileDescriptor) {
            case .regular: break
            case .directory: throw CoverError.file(path: name, reason: "not a regular file: it is a directory")
            case let .special(kind): throw CoverError.file(path: name, reason: "not a regular file: it is \(kind)")
            case .missing: throw CoverError.file(path: name, reason: "no such file")
            case let .failed(code): throw CoverError.file(path: name, reason: FileStatus.describe(code).lowercased())
            }
            while true {
                let chunk: Data
                do {
                    chunk = try file.read(upToCount: Self.chunkSize)
                } catch {
                    throw CoverError.file(path: name, reason: "\(error)")
                }
                if chunk.isEmpty { return }
                try chunk.withUnsafeBytes(body)
            }
        }
    }
}

/// What one pass over a source found: its hash, size and image header.
struct CoverScan: Sendable {
    let hash: ContentHash
    let byteCount: Int
    let header: ImageHeader

    /// Reads `source` once.
    /// - Throws: `CoverError.tooLarge` as soon as it passes `limit` bytes, `.notAnImage` when
    ///   its first bytes are not an image header, `.implausibleSize` or `.incompleteImage` when
    ///   the header claims a size no cover has or the format's frame is missing (`ImageStructure`),
    ///   `.file` when it cannot be read.
    init(_ source: CoverSource, limit: Int) throws {
        var hasher = ContentHasher()
        var count = 0
        var head: [UInt8] = [], tail: [UInt8] = []
        try source.forEachChunk { chunk in
            count += chunk.count
            if count > limit { throw CoverError.tooLarge(source: source.name, limit: limit) }
            if head.count < ImageHeader.sniffLength {
                head += chunk.prefix(ImageHeader.sniffLength - head.count)
            }
            tail = Array((tail + chunk.suffix(ImageStructure.tailLength)).suffix(ImageStructure.tailLength))
            hasher.update(chunk)
        }
        guard let header = ImageHeader.sniff(head) else { throw CoverError.notAnImage(source: source.name) }
        guard header.hasPlausibleSize else {
            throw CoverError.implausibleSize(source: source.name, width: header.width, height: header.height)
        }
        if let reason = ImageStructure.problem(of: header, head: head, tail: tail, byteCount: count) {
            throw CoverError.incompleteImage(source: source.name, format: header.format, reason: reason)
        }
        self.hash = hasher.finalize()
        self.byteCount = count
        self.header = header
    }
}
