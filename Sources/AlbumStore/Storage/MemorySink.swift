/// A sink that keeps every byte in memory, for tests and small outputs.
package final class MemorySink: ByteSink {
    /// Everything written so far.
    package private(set) var bytes: [UInt8] = []

    package init() {}

    /// The bytes as UTF-8 text (invalid sequences become U+FFFD).
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }

    package func flush() throws {}
}
