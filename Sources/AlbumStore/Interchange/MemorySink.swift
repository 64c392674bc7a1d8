/// A sink that keeps every byte in memory, for tests and small outputs.
public final class MemorySink: ByteSink {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// The bytes as UTF-8 text (invalid sequences become U+FFFD).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }

    public func flush() throws {}
}
