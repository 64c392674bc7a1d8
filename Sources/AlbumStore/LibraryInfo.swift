/// Facts about an open library.
public struct LibraryInfo: Sendable, Codable, Equatable {
    public var path: String
    public var schemaVersion: Int
    public var sqliteVersion: String
    public var albumCount: Int
    /// Bytes of the database file itself.
    public var fileSize: Int
    /// Bytes of its write-ahead log (committed changes not yet checkpointed into the file).
    public var walSize: Int
}
