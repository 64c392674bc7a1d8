/// How far an import is, as its progress callback sees it.
public struct ImportProgress: Sendable, Hashable {
    /// Rows (records) read so far, valid or not.
    public var rows: Int
    /// Bytes of the source read so far.
    public var bytesRead: Int
    /// The source's size in bytes, when known (not for standard input or a pipe).
    public var totalBytes: Int?

    /// Progress with these counts.
    public init(rows: Int, bytesRead: Int, totalBytes: Int?) {
        self.rows = rows
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
    }

    /// The share of the bytes read, 0...1, when the size is known.
    public var fraction: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(bytesRead) / Double(totalBytes))
    }
}
