import Crypto
import FoundationEssentials

/// The SHA-256 of an image's bytes: its address in the cover store.
struct ContentHash: Sendable, Hashable {
    /// The 32 digest bytes, as stored in `cover_images.sha256` and `covers.sha256`.
    let bytes: Data

    init(bytes: Data) { self.bytes = bytes }

    /// Lowercase hexadecimal, as `sha256sum` prints it.
    var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
    }
}

/// Hashes bytes fed in chunks.
struct ContentHasher {
    private var hasher = SHA256()

    mutating func update(_ bytes: UnsafeRawBufferPointer) { hasher.update(bufferPointer: bytes) }

    consuming func finalize() -> ContentHash { ContentHash(bytes: Data(hasher.finalize())) }
}
