/// Where a writer's bytes go: a file descriptor (through a buffer), memory, or anything else.
///
/// Writers hand over each record's bytes as soon as the record is done and keep nothing
/// themselves, so what a sink holds is all the output held in memory. A sink is used by one
/// thread at a time.
package protocol ByteSink: AnyObject {
    /// Takes `bytes`, which are valid only during the call; a sink may buffer them until `flush()`.
    ///
    /// - Throws: `ByteSinkError` when the bytes cannot be passed on.
    func write(_ bytes: UnsafeRawBufferPointer) throws

    /// Passes on whatever is buffered. Writers' `finish()` calls it.
    func flush() throws
}

extension ByteSink {
    /// Writes the bytes of an array.
    package func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Writes the UTF-8 bytes of `text`.
    package func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }
}
