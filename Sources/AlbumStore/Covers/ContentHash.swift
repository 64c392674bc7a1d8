import FoundationEssentials
#if canImport(CryptoKit)
import CryptoKit
#else
internal import CLibCrypto
#endif

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

/// Hashes bytes fed in chunks, with the system's own SHA-256: CryptoKit on Apple's systems, the
/// system's libcrypto (OpenSSL) elsewhere. Both get the system's security updates, and neither is
/// compiled with the library (swift-crypto would build BoringSSL into every app that adds it).
struct ContentHasher {
    #if canImport(CryptoKit)
    private var hasher = SHA256()

    mutating func update(_ bytes: UnsafeRawBufferPointer) { hasher.update(bufferPointer: bytes) }

    consuming func finalize() -> ContentHash { ContentHash(bytes: Data(hasher.finalize())) }
    #else
    private let digest = Digest()

    mutating func update(_ bytes: UnsafeRawBufferPointer) { digest.update(bytes) }

    consuming func finalize() -> ContentHash { ContentHash(bytes: digest.finalize()) }

    /// libcrypto's digest context, freed with the hasher.
    private final class Digest {
        private let context: OpaquePointer

        init() {
            guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
                fatalError("libcrypto cannot start a SHA-256 digest (out of memory)")
            }
            self.context = context
        }

        deinit { EVP_MD_CTX_free(context) }

        func update(_ bytes: UnsafeRawBufferPointer) {
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
            // Fails only for a context that was not initialised, which `init` rules out.
            _ = EVP_DigestUpdate(context, start, bytes.count)
        }

        func finalize() -> Data {
            var bytes = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var count: UInt32 = 0
            _ = EVP_DigestFinal_ex(context, &bytes, &count)
            return Data(bytes.prefix(Int(count)))
        }
    }
    #endif
}
