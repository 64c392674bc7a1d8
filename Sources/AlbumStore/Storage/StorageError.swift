internal import AlbumSQLite

/// The library's file could not do what was asked: the file system or SQLite refused or failed.
/// Nothing was changed (a write's transaction was rolled back).
///
/// `description` is one plain sentence naming the file and what went wrong, for a person to read
/// ("another process is writing to /x/library.sqlite; gave up after 5 s"). `detail` keeps what
/// SQLite said, its extended result code (https://sqlite.org/rescode.html), message and statement,
/// so a bug report carries everything needed. `reason` sorts the failures an app may act on.
public struct StorageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure it is: what an app may do about it.
    public enum Reason: Sendable, Hashable {
        // Found by looking at the path (stat(2), access(2)) before SQLite opens anything:

        /// The path names no file: it is empty, holds a NUL byte, is SQLite's `:memory:`, or is
        /// a URL that is not a `file:` URL (`message` says which). SQLite would open a
        /// throwaway database, or another file, and every write would be lost.
        case notAFilePath

        /// Nothing is at the path, and the access asked for does not create a library.
        case notFound
        /// The file is empty (or an empty SQLite database): reading does not make it a library.
        case emptyFile
        /// The path is a directory.
        case isADirectory
        /// The path is a device, a FIFO or a socket (`message` says which): SQLite must not open
        /// it, it could block or write a journal beside it.
        case notARegularFile
        /// A folder of the path is a file (`parent` names it).
        case parentIsAFile
        /// The file or a folder on its way cannot be read or searched.
        case permissionDenied
        /// A backup's destination exists and replacing it was not asked for.
        case alreadyExists

        // Found either way:

        /// The file or its folder cannot be written, or the library was opened read-only.
        case readOnly

        // Reported by SQLite:

        /// Another process holds the lock longer than the busy timeout, or, inside this process,
        /// another thread holds the writer or every reader connection that long (`message`
        /// says which): try again later.
        case busy
        /// The file is damaged.
        case corrupt
        /// The disk is full.
        case full
        /// Reading or writing the file failed.
        case io
        /// A stored value breaks a rule of the schema (e.g. a duplicate key).
        case constraint
        /// A library method was called from inside a closure that holds the writer on the
        /// same thread (it would wait for itself), or another misuse.
        case misuse
        /// Any other failure SQLite reported; `code` and `message` say which.
        case other
    }

    /// What kind of failure it is.
    public var reason: Reason
    /// The library file (for a backup, the destination when that is what failed).
    public var path: String
    /// What SQLite or the file system said, e.g. "database is locked", "a FIFO".
    public var message: String
    /// SQLite's extended result code, e.g. 2067 (SQLITE_CONSTRAINT_UNIQUE); `nil` when the file
    /// system refused before SQLite was asked.
    public var code: Int32?
    /// The statement that failed, when there was one.
    public var sql: String?
    /// For `.parentIsAFile`: the file standing where a folder of `path` should be.
    public var parent: String?
    /// For `.busy`: how long the library waited for the lock.
    public var busyTimeout: Duration?
    /// For `.busy`: whether another library of this process had the file open when the wait
    /// ended, so the writer may be in this process rather than another.
    var isOpenTwiceInThisProcess = false

    private var lockHolder: String {
        isOpenTwiceInThisProcess ? "another Library in this process, or another process," : "another process"
    }

    /// An error SQLite reported with `code`; `reason` follows from the code.
    public init(code: Int32, message: String, path: String) {
        self.init(Self.reason(forCode: code), path: path, message: message)
        self.code = code
    }

    init(_ reason: Reason, path: String, message: String = "", parent: String? = nil) {
        self.reason = reason
        self.path = path
        self.message = message
        self.parent = parent
    }

    /// The plain sentence: what went wrong with which file, and what to do where that is clear.
    public var description: String {
        let note = message.isEmpty ? "" : " (\(message))"
        return switch reason {
        case .notAFilePath: "\(path.isEmpty ? "an empty path" : "\"\(path.split(separator: "\0", omittingEmptySubsequences: false).joined(separator: "\\0"))\"") is not a library file's path: \(message)"
        case .notFound: "no library at \(path)"
        case .emptyFile: "\(path) is empty, not a library"
        case .isADirectory: "\(path) is a directory, not a library file"
        case .notARegularFile: "\(path) is not a regular file\(message.isEmpty ? "" : ": it is \(message)")"
        case .parentIsAFile: "cannot use \(path): \(parent ?? "a folder on its way") is a file, not a folder"
        case .permissionDenied: "cannot open \(path): permission denied\(note)"
        case .alreadyExists: "\(path) already exists"
        // SQLite's "attempt to write a readonly database" adds nothing to the sentence.
        case .readOnly: "\(path) is read-only\(code == nil ? note : "")"
        case .busy where code == SQLiteError.ResultCode.busyTimeout:
            // A wait inside this process: the layer's message says for what.
            "\(path): \(message); gave up after \(Self.format(busyTimeout ?? .seconds(5)))"
        case .busy: "\(lockHolder) is writing to \(path); gave up after \(Self.format(busyTimeout ?? .seconds(5)))"
        case .corrupt: "\(path) is damaged: \(message); restore a backup"
        case .full: "cannot write to \(path): the disk is full"
        case .io: "cannot read or write \(path): \(message)"
        case .constraint, .misuse, .other: "\(path): \(message)"
        }
    }

    /// What SQLite said, for a bug report: `SQLite error 5 (database is locked): database is
    /// locked in `BEGIN IMMEDIATE``; for a refusal of the file system, its message.
    public var detail: String {
        guard let code else { return message }
        return SQLiteError(extendedCode: code, message: message, sql: sql).description
    }

    /// Sorts SQLite's result codes by their primary code (the low byte).
    static func reason(forCode code: Int32) -> Reason {
        switch code & 0xff {
        case 5, 6: .busy          // SQLITE_BUSY, SQLITE_LOCKED
        case 8: .readOnly         // SQLITE_READONLY
        case 11, 26: .corrupt     // SQLITE_CORRUPT, SQLITE_NOTADB
        case 13: .full            // SQLITE_FULL
        case 10, 14: .io          // SQLITE_IOERR, SQLITE_CANTOPEN
        case 3: .permissionDenied // SQLITE_PERM
        case 19: .constraint      // SQLITE_CONSTRAINT
        case 21: .misuse          // SQLITE_MISUSE
        default: .other
        }
    }

    /// "5 s", "1.5 s", "200 ms": how a person says a timeout.
    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        return "\(Double(milliseconds) / 1000) s"
    }
}

extension StorageError {
    /// SQLite's error for the library at `path`; a busy error says how long it waited.
    init(_ error: SQLiteError, path: String, busyTimeout: Duration) {
        self.init(code: error.extendedCode, message: error.message, path: path)
        if error.isDiskFull { reason = .full }
        sql = error.sql
        if reason == .busy {
            self.busyTimeout = busyTimeout
            isOpenTwiceInThisProcess = OpenLibraries.count(of: path) > 1
        }
    }
}

/// Runs `body`, turning the SQLite layer's errors into `StorageError`s for `path`: callers of
/// the library never see a type of the layer below.
func mappingStorageErrors<T>(path: String, busyTimeout: Duration, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as SQLiteError {
        throw StorageError(error, path: path, busyTimeout: busyTimeout)
    }
}

/// The async form of `mappingStorageErrors`.
func mappingStorageErrors<T>(path: String, busyTimeout: Duration, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as SQLiteError {
        throw StorageError(error, path: path, busyTimeout: busyTimeout)
    }
}
