internal import AlbumSQLite

/// The page size a new library file is made with: 16384 bytes rather than SQLite's 4096.
///
/// Covers are blobs of tens of kilobytes to megabytes, stored in overflow pages: with 16 KB
/// pages an image takes a quarter of the page reads (each a system call), which
/// `scripts/bench-covers` measured as the difference between meeting and missing "reads at
/// least as fast as files" at 50 KB (see the README, "Covers"). A file's page size is fixed when
/// its first table is made, so only new files get it; existing ones keep theirs (a `VACUUM`
/// would change it).
enum CoverPageSize {
    static let bytes = 16384

    /// Sets the page size on a file that has no pages yet; on any other file it does nothing,
    /// and it never writes: the file is only made by the first migration, after it is checked.
    static func apply(to connection: Connection) throws {
        guard try connection.scalar("PRAGMA page_count", as: Int.self) == 0 else { return }
        try connection.execute("PRAGMA page_size = \(bytes)")
    }
}
