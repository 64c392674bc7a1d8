import FoundationEssentials
internal import AlbumSQLite

/// How to open a library file's connections: the name SQLite gets, read-only or read-write, and
/// whether to refuse writes on a read-write connection (`query_only`).
///
/// Reading must leave the file and its folder as they were. SQLite's read-only connections do
/// not quite: on a WAL database they create the `-wal` and `-shm` files when these are missing
/// and the folder is writable, and a read-only connection cannot delete them again on close
/// (it cannot take the exclusive lock for the last checkpoint), so they stay behind. Since 3.22
/// they open only where those files exist or can be created, or with `immutable=1`
/// (https://sqlite.org/wal.html#readonly). So `reading` picks, from what the file system says:
///
/// - the file and its folder are writable: a read-write connection with `query_only` on. SQLite
///   creates its WAL files as for any connection and the last connection to close removes
///   them; `query_only` turns any write into an error, and the library writes nothing at open
///   (no migration, no pragma that changes the file, no trigger install).
/// - otherwise `SQLITE_OPEN_READONLY`, which uses the WAL files when they exist; and when the
///   file is a WAL database without a `-wal` file, and either its folder cannot be written or no
///   one may write the file (no write permission bit), `immutable=1` as well: SQLite then takes
///   no locks and opens no WAL files. That is safe there because every commit to a WAL
///   database goes through its `-wal` file, and no process can create one in a folder it
///   cannot write, nor write a file no one may write: the main file holds every committed
///   transaction and cannot change while it is read. (Root passes permission bits, and a
///   `chmod` while a read is under way would make the read unsafe; neither happens in the
///   cases this serves: a library in a read-only folder or on a read-only disk, a backup kept
///   read-only.)
/// - a WAL database whose file someone else may write, in a folder this process can write but
///   without a `-wal` file: `SQLITE_OPEN_READONLY`, and SQLite creates the WAL files, which it
///   needs to read safely beside that writer; they stay behind.
struct OpenPlan: Sendable, Equatable {
    /// The path, or a `file:` URI with `immutable=1`.
    var filename: String
    var mode: ConnectionOptions.Mode
    var queryOnly: Bool

    var isImmutable: Bool { filename.hasPrefix("file:") }

    /// What the file system says about a file to read.
    struct ReadingFacts: Sendable, Equatable {
        var fileIsWritable: Bool
        var folderIsWritable: Bool
        /// The header says WAL (bytes 18 and 19 are 2). Not read, and `false`, when the file and
        /// its folder are writable: the plan does not depend on it then.
        var isWAL: Bool
        var walFileExists: Bool
        /// Some write permission bit is set on the file.
        var anyoneMayWrite: Bool
    }

    /// How to open `path` for reading only (see the type's comment for why).
    static func reading(_ path: String, _ facts: ReadingFacts) -> OpenPlan {
        if facts.fileIsWritable && facts.folderIsWritable {
            return OpenPlan(filename: path, mode: .readWrite, queryOnly: true)
        }
        if facts.isWAL && !facts.walFileExists && (!facts.folderIsWritable || !facts.anyoneMayWrite) {
            return OpenPlan(filename: immutableURI(path), mode: .readOnly, queryOnly: false)
        }
        return OpenPlan(filename: path, mode: .readOnly, queryOnly: false)
    }

    /// The facts about `path`, a readable regular file with mode bits `mode`.
    /// The header is read only when the plan depends on it (the file or its folder not writable).
    static func readingFacts(_ path: String, mode: UInt32) -> ReadingFacts {
        let fileIsWritable = FileStatus.isWritable(path)
        let folderIsWritable = FileStatus.isWritable(FileStatus.folder(of: path))
        return ReadingFacts(
            fileIsWritable: fileIsWritable,
            folderIsWritable: folderIsWritable,
            isWAL: fileIsWritable && folderIsWritable ? false : isWAL(path),
            walFileExists: FileStatus(path: path + "-wal") != .missing,
            anyoneMayWrite: mode & 0o222 != 0)
    }

    /// `file:` + the path, percent-encoded but for unreserved characters and `/` (SQLite decodes
    /// `%HH`; `?`, `#` and `%` must not reach it raw), + `?immutable=1`.
    /// Related SQLite documentation: https://sqlite.org/uri.html
    static func immutableURI(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"),
                 UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                uri.append(Character(Unicode.Scalar(byte)))
            default:
                uri += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return uri + "?immutable=1"
    }

    /// Whether the file's header marks a WAL database: "SQLite format 3\0", then bytes 18 and 19
    /// (write and read version) 2. Read through SQLite (`DatabaseFileHeader`), never with a
    /// descriptor of our own: closing that would drop the locks of this process's connections
    /// to the file (see `OpenLibraries`). Related SQLite documentation: https://sqlite.org/fileformat2.html
    static func isWAL(_ path: String) -> Bool {
        guard let bytes = try? DatabaseFileHeader.read(path: path, count: 20) else { return false }
        return bytes[0..<16].elementsEqual("SQLite format 3\0".utf8) && bytes[18] == 2 && bytes[19] == 2
    }

    /// Runs `body` with `options`, and, when SQLite cannot make the WAL's shared-memory file
    /// (`-shm`) because the disk is full, once more with `isExclusive` true and `options` in
    /// exclusive locking mode: set before the first read, it has SQLite keep the WAL index in its
    /// own memory, and lock the file for the one connection that reads (no other process could
    /// write anyway). Only for a read-write connection with `query_only` (the file and folder are
    /// writable): the other plans get the error.
    /// Related SQLite documentation: https://sqlite.org/wal.html#noshm
    func reading<T>(_ options: ConnectionOptions, _ body: (_ options: ConnectionOptions, _ isExclusive: Bool) throws -> T) throws -> T {
        do {
            return try body(options, false)
        } catch let error as SQLiteError where (error.isDiskFull || error.isSharedMemoryFailure) && mode == .readWrite && queryOnly {
            var exclusive = options
            let setUp = options.setUp
            exclusive.setUp = { connection throws(SQLiteError) in
                try connection.execute("PRAGMA locking_mode = EXCLUSIVE")
                try setUp?(connection)
            }
            return try body(exclusive, true)
        }
    }

    /// Connection options for this plan: the journal mode left alone (the migrator switches a
    /// file it knows to be ours to WAL).
    func options(busyTimeout: Duration) -> ConnectionOptions {
        var options = ConnectionOptions.default
        options.journalMode = nil
        options.mode = mode
        options.queryOnly = queryOnly
        options.busyTimeout = busyTimeout
        return options
    }
}

private extension String {
    func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
