extension Library {
    /// What opening a library may do to its file, chosen by the caller: a viewer reads, an
    /// editor writes, only "new library" creates.
    ///
    /// Whatever the access, the path is checked before SQLite opens anything: a directory, a
    /// device, a FIFO or a socket, and a path with a file where a folder should be are refused
    /// with a `StorageError` in plain words, and nothing is created or left behind.
    public enum Access: Sendable, Hashable {
        /// Reads only, also where writing is impossible (a read-only file, folder or disk).
        ///
        /// The file must exist, be non-empty and be a library at this version's schema. Nothing
        /// is written: no migration (an older file throws `SchemaError.needsUpgrade`), no change
        /// to the journal mode or other settings, no change-log trigger install, and no `-wal` or
        /// `-shm` file left behind (see `OpenPlan`). Commands throw `StorageError` with reason
        /// `.readOnly` before touching anything. Missing: `.notFound`; empty: `.emptyFile`.
        case readOnly
        /// Reads and writes an existing library, migrating it first when it is older.
        /// Missing: `StorageError` `.notFound`. Not writable: `.readOnly`.
        case readWrite
        /// Like `readWrite`, but a missing file is created, with any missing folders above it
        /// (0700: private, as the XDG Base Directory specification asks).
        case create
    }
}
