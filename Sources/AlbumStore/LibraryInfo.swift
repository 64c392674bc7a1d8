/// Facts about an open library.
///
/// Its JSON form: `path`, `schema_version`, `sqlite_version`, `album_count`, `file_size`, `wal_size`.
public struct LibraryInfo: Sendable, Codable, Equatable {
    /// The database file's path, as the library was opened with it.
    public var path: String
    /// The schema version the file is at (`Library.schemaVersion`).
    public var schemaVersion: Int
    /// The version of the SQLite library in use, e.g. `3.45.1`.
    public var sqliteVersion: String
    /// How many albums the library holds.
    public var albumCount: Int
    /// Bytes of the database file itself.
    public var fileSize: Int
    /// Bytes of its write-ahead log (committed changes not yet checkpointed into the file).
    public var walSize: Int
}

extension LibraryInfo {
    /// Writes the facts under snake_case keys, whatever the encoder's key strategy.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: SnakeCaseKey.self)
        try container.encode(path, forKey: "path")
        try container.encode(schemaVersion, forKey: "schema_version")
        try container.encode(sqliteVersion, forKey: "sqlite_version")
        try container.encode(albumCount, forKey: "album_count")
        try container.encode(fileSize, forKey: "file_size")
        try container.encode(walSize, forKey: "wal_size")
    }

    /// Reads what `encode(to:)` writes. - Throws: `DecodingError` naming a missing key.
    public init(from decoder: Decoder) throws {
        let object = try SnakeCaseObject(decoder)
        path = try object.decode(String.self, forKey: "path")
        schemaVersion = try object.decode(Int.self, forKey: "schema_version")
        sqliteVersion = try object.decode(String.self, forKey: "sqlite_version")
        albumCount = try object.decode(Int.self, forKey: "album_count")
        fileSize = try object.decode(Int.self, forKey: "file_size")
        walSize = try object.decode(Int.self, forKey: "wal_size")
    }
}
