/// One step of the schema: a `Migrations/NNNN_name.sql` file.
struct Migration: Sendable, Hashable {
    /// The number before the underscore; migrations apply in this order.
    let version: Int
    /// The part after the underscore, e.g. "albums".
    let name: String
    let sql: String

    /// A migration named like its file, e.g. `0001_albums`.
    init(fileName: String, sql: String) {
        let parts = fileName.split(separator: "_", maxSplits: 1)
        guard parts.count == 2, let version = Int(parts[0]) else {
            preconditionFailure("migration file names look like 0001_name: \(fileName)")
        }
        self.init(version: version, name: String(parts[1]), sql: sql)
    }

    init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// The file name, e.g. `0001_albums`.
    var fileName: String { String(repeating: "0", count: max(0, 4 - String(version).count)) + "\(version)_\(name)" }

    /// FNV-1a (64-bit) of the SQL's UTF-8 bytes, in hex: detects a migration edited after it was
    /// applied. Not a security measure, so no crypto dependency.
    var checksum: String {
        var sql = sql
        // Over the contiguous bytes: every open checks every migration, and iterating the
        // string's view costs three times as much.
        let hash = sql.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
            return hash
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
