import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
internal import AlbumSQLite

/// A library's path as the file system sees it, checked before SQLite opens anything: what
/// SQLite would do with a missing file, a directory or a device is not what a person meant.
///
/// `plan(for:access:)` refuses what the access asked for cannot use, with a `StorageError`
/// naming the path in plain words, and otherwise says how to open it (`OpenPlan`). Only `.create`
/// creates anything: the missing folders (private, see `PrivateFolders`), then SQLite the file.
enum LibraryFile {
    /// 'AlbS', the header's application id that marks a SQLite file as an AlbumStore library
    /// (the migrator writes it).
    static let applicationID: Int32 = 0x416C_6253

    /// Refuses a path that names no file as a person meant it: SQLite opens a throwaway
    /// database for an empty path or `:memory:`, and a NUL byte would end the path early.
    static func requireFilePath(_ path: String) throws {
        let problem: String? =
            if path.isEmpty { "give the path of the library's file" }
            else if path.contains("\0") { "it holds a NUL byte" }
            else if path == ":memory:" { "that is SQLite's throwaway in-memory database; Library.inMemory() makes one on purpose" }
            else { nil }
        if let problem { throw StorageError(.notAFilePath, path: path, message: problem) }
    }

    static func plan(for path: String, access: Library.Access) throws -> OpenPlan {
        switch FileStatus(path: path) {
        case .missing:
            guard access == .create else { throw missing(path) }
            try PrivateFolders.create(above: path)
            guard FileStatus.isWritable(FileStatus.folder(of: path)) else {
                throw StorageError(.readOnly, path: path, message: "its folder cannot be written")
            }
            return OpenPlan(filename: path, mode: .readWriteCreate, queryOnly: false)
        case .failed(let code): throw refusal(of: path, errno: code)
        case .directory: throw StorageError(.isADirectory, path: path)
        case .special(let kind): throw StorageError(.notARegularFile, path: path, message: kind)
        case .regular(let file):
            guard FileStatus.isReadable(path) else { throw StorageError(.permissionDenied, path: path) }
            switch access {
            case .readOnly:
                // An empty file would read as an empty database, and a read must not make it a
                // library (a writing access may: it becomes one as a new file would).
                guard file.size > 0 else { throw StorageError(.emptyFile, path: path) }
                return OpenPlan.reading(path, OpenPlan.readingFacts(path, mode: file.mode))
            case .readWrite, .create:
                try requireWritable(path)
                return OpenPlan(filename: path, mode: .readWrite, queryOnly: false)
            }
        }
    }

    /// Checks that a backup can be written at `path`, creating its missing folders.
    /// - Parameter source: The library's own file: a backup must not replace it.
    static func prepareBackup(at path: String, overwrite: Bool, source: FileStatus) throws {
        switch FileStatus(path: path) {
        case .missing:
            try refuseLiveFiles(path)
            try PrivateFolders.create(above: path)
        case .failed(let code): throw refusal(of: path, errno: code)
        case .directory: throw StorageError(.isADirectory, path: path)
        case .special(let kind): throw StorageError(.notARegularFile, path: path, message: kind)
        case .regular(let file):
            if case .regular(let library) = source, library.device == file.device, library.inode == file.inode {
                throw StorageError(.other, path: path, message: "that is the library itself; back it up to another file")
            }
            // Before `overwrite` is looked at, so that no refusal suggests `--force`; and before
            // the header is read: even through SQLite, opening an open library's `-shm` and
            // closing it would drop this process's locks on it.
            try refuseLiveFiles(path)
            guard overwrite else { throw StorageError(.alreadyExists, path: path) }
            // Replacing is for an older backup or a scratch file: another program's database
            // stays as it is.
            if file.size > 0, isForeignDatabase(path) {
                throw StorageError(.other, path: path, message: "that is another program's SQLite database, not replaced; back up to another file")
            }
        }
        guard FileStatus.isWritable(FileStatus.folder(of: path)) else {
            throw StorageError(.readOnly, path: path, message: "its folder cannot be written")
        }
    }

    /// Refuses a file a live database uses beside it.
    private static func refuseLiveFiles(_ path: String) throws {
        // A copy renamed over an open library's `-wal` would become that library's log.
        try OpenLibraries.refuse(path)
        // The same for a database open in another process: whoever has it open would take the
        // copy for its write-ahead log, shared memory or hot journal, or lose the one it has.
        if let database = databaseKeeping(path) {
            throw StorageError(.other, path: path, message: "that is a file SQLite keeps beside \(database); back up to another file")
        }
    }

    /// The database whose `-wal`, `-shm` or `-journal` file `path` is named as, when that
    /// database exists.
    private static func databaseKeeping(_ path: String) -> String? {
        for suffix in OpenLibraries.companionSuffixes where path.hasSuffix(suffix) {
            let database = String(path.dropLast(suffix.count))
            if case .regular = FileStatus(path: database) { return database }
        }
        return nil
    }

    /// Whether the file at `path` is a SQLite database not marked as AlbumStore's (its header's
    /// application id), read through SQLite (see `OpenLibraries`).
    private static func isForeignDatabase(_ path: String) -> Bool {
        guard let header = try? DatabaseFileHeader.read(path: path, count: 72),
              header[0..<16].elementsEqual("SQLite format 3\0".utf8) else { return false }
        let id = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Int32(bitPattern: id) != applicationID
    }

    /// Writing needs the file, and its folder for the WAL files (unless both exist and can be
    /// written: a folder made read-only while a writer keeps the library open).
    private static func requireWritable(_ path: String) throws {
        guard FileStatus.isWritable(path) else { throw StorageError(.readOnly, path: path) }
        let walFiles = [path + "-wal", path + "-shm"]
        guard FileStatus.isWritable(FileStatus.folder(of: path)) || walFiles.allSatisfy(FileStatus.isWritable) else {
            throw StorageError(.readOnly, path: path, message: "its folder cannot be written")
        }
    }

    /// Nothing at `path`: no library there, or a file where a folder of it should be.
    private static func missing(_ path: String) -> StorageError {
        var folder = FileStatus.folder(of: path)
        while true {
            switch FileStatus(path: folder) {
            // ENOTDIR: a file further up; look on.
            case .missing, .failed(ENOTDIR):
                let above = FileStatus.folder(of: folder)
                if above == folder { return StorageError(.notFound, path: path) }
                folder = above
            case .directory: return StorageError(.notFound, path: path)
            case .regular, .special: return StorageError(.parentIsAFile, path: path, parent: folder)
            case .failed(let code): return refusal(of: path, errno: code)
            }
        }
    }

    /// The error for a failed stat(2), access(2) or mkdir(2) on the way to `path`.
    static func refusal(of path: String, errno code: Int32, creating folder: String? = nil) -> StorageError {
        let what = folder.map { "cannot create folder \($0)" }
        switch code {
        case ENOTDIR: return missing(path)
        case EACCES, EPERM: return StorageError(.permissionDenied, path: path, message: what ?? "")
        case EROFS: return StorageError(.readOnly, path: path, message: what ?? "")
        case ENOSPC: return StorageError(.full, path: path)
        default:
            let reason = FileStatus.describe(code)
            return StorageError(.other, path: path, message: what.map { "\($0): \(reason)" } ?? reason)
        }
    }
}
