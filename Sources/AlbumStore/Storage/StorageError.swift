internal import AlbumSQLite

/// The library's file could not do what was asked: SQLite refused or failed. Nothing was
/// changed (a write's transaction was rolled back).
///
/// `code` is SQLite's extended result code (https://sqlite.org/rescode.html), kept so a bug
/// report carries everything needed; `reason` sorts the codes an app may want to act on.
public struct StorageError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// Another process holds the lock longer than the busy timeout: try again later.
        case busy
        /// The file or its folder cannot be written.
        case readOnly
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
        case other
    }

    /// SQLite's extended result code, e.g. 2067 (SQLITE_CONSTRAINT_UNIQUE).
    public var code: Int32
    /// SQLite's message.
    public var message: String
    /// The library file.
    public var path: String

    public init(code: Int32, message: String, path: String) {
        self.code = code
        self.message = message
        self.path = path
    }

    public var reason: Reason {
        typealias Code = SQLiteError.ResultCode
        return switch code & 0xff {
        case Code.busy, Code.locked: .busy
        case Code.readOnly: .readOnly
        case Code.corrupt, Code.notADatabase: .corrupt
        case Code.full: .full
        case Code.ioError, Code.cannotOpen: .io
        case Code.constraint: .constraint
        case Code.misuse: .misuse
        default: .other
        }
    }

    public var description: String { "\(path): \(message) (SQLite error \(code))" }
}

extension StorageError {
    init(_ error: SQLiteError, path: String) {
        self.init(code: error.extendedCode, message: error.message, path: path)
    }
}

/// Runs `body`, turning the SQLite layer's errors into `StorageError`s for `path`: callers of
/// the library never see a type of the layer below.
func mappingStorageErrors<T>(path: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as SQLiteError {
        throw StorageError(error, path: path)
    }
}

/// The async form of `mappingStorageErrors`.
func mappingStorageErrors<T>(path: String, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as SQLiteError {
        throw StorageError(error, path: path)
    }
}
