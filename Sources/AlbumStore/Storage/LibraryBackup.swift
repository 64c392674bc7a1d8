import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
internal import AlbumSQLite

extension Library {
    /// Writes a consistent copy of the library to `url`, also while other processes write to it.
    ///
    /// The copy is SQLite's online backup of one read snapshot: it holds every transaction
    /// committed before the backup began and none after, and writers are not held up (under WAL
    /// they commit beside the reading backup). It is written to a temporary file in `url`'s
    /// folder, synced, and only then renamed to `url`, so a failed backup leaves nothing
    /// half-written and an existing file is replaced whole or not at all. Missing folders are
    /// created (0700). Works on a library opened `.readOnly`.
    /// Related SQLite documentation: https://sqlite.org/backup.html
    ///
    /// - Parameters:
    ///   - url: Where to write the copy (a file URL); not the library's own file, nor the
    ///     `-wal`, `-shm` or `-journal` file of any database there.
    ///   - overwrite: Replace an existing file at `url`; without it that is refused. Another
    ///     program's SQLite database (one without AlbumStore's application id) is never replaced.
    /// - Throws: `StorageError`: `.alreadyExists` (and `overwrite` is false), `.isADirectory`,
    ///   `.notARegularFile`, `.parentIsAFile`, `.readOnly` (the folder cannot be written),
    ///   `.full`...; `url` is then as it was.
    public func backup(to url: URL, overwrite: Bool = false) throws {
        let destination = url.path
        try LibraryFile.prepareBackup(at: destination, overwrite: overwrite, source: FileStatus(path: path))
        let folder = FileStatus.folder(of: destination)
        let temporary = folder + "/." + url.lastPathComponent + "." + UUID().uuidString + ".tmp"
        do {
            try mappingStorageErrors(path: destination, busyTimeout: busyTimeout) {
                var options = ConnectionOptions.default
                // A plain rollback-journal file while it is written (no WAL files to clean up);
                // FULL: the copy is on disk before it takes the destination's name.
                options.journalMode = nil
                options.synchronous = .full
                let copy = try Connection(path: temporary, options: options)
                if path == ":memory:" {
                    try database.withWriter { try $0.backup(to: copy) }
                } else {
                    // One step in one read transaction: a snapshot that writers cannot restart.
                    try database.read { try $0.backup(to: copy) }
                }
            }
            try Self.moveIntoPlace(temporary, destination, overwrite: overwrite)
        } catch {
            for leftover in [temporary, temporary + "-journal"] { unlink(leftover) }
            throw error
        }
        syncFolder(folder)
    }

    /// Gives the finished copy its name: rename(2) replaces an existing file atomically; link(2)
    /// refuses one that appeared since the check (EEXIST), so nothing is overwritten unasked.
    private static func moveIntoPlace(_ temporary: String, _ destination: String, overwrite: Bool) throws {
        if overwrite {
            guard rename(temporary, destination) == 0 else { throw LibraryFile.refusal(of: destination, errno: errno) }
            return
        }
        guard link(temporary, destination) == 0 else {
            let code = errno
            throw code == EEXIST ? StorageError(.alreadyExists, path: destination)
                : LibraryFile.refusal(of: destination, errno: code)
        }
        unlink(temporary)
    }
}

/// Makes a rename in `folder` durable: the new name is on disk once the folder's entry is.
private func syncFolder(_ folder: String) {
    let descriptor = open(folder, O_RDONLY)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
}
