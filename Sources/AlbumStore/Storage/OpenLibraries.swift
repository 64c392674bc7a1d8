import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The library files this process has open through SQLite, and the rule that protects them.
///
/// **The rule: this process never opens, reads, writes, copies or maps a library's database file
/// or its `-wal`, `-shm` or `-journal` file outside SQLite while one of its own connections may
/// be open.** On POSIX, closing any descriptor of a file drops every lock the process holds on
/// it; another process then believes it is the last connection, checkpoints and deletes the
/// write-ahead log under us, and commits that were acknowledged are lost (SQLite's "How To
/// Corrupt An SQLite Database File", §2.2). Reading a database's header goes through SQLite
/// (`DatabaseFileHeader`); facts about a file come from stat(2), which opens nothing.
///
/// Every file the library opens itself (`OpenFile`, `CatalogInput`) or writes into place (a
/// backup) is first checked with `refuse(_:)`: a catalog, cover, snapshot or output path that
/// names an open library's file, by another name or a link too, is refused with a clear error
/// instead of being opened. Libraries register here when they open and leave when they close.
package enum OpenLibraries {
    /// The database paths of the open libraries, each with how many libraries opened it.
    private static let paths = Mutex<[String: Int]>([:])

    /// The files SQLite keeps beside a database.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    static func register(_ path: String) {
        paths.withLock { $0[path, default: 0] += 1 }
    }

    static func unregister(_ path: String) {
        paths.withLock { paths in
            guard let count = paths[path] else { return }
            paths[path] = count > 1 ? count - 1 : nil
        }
    }

    /// How many libraries of this process have `path` open (found by its absolute path).
    static func count(of path: String) -> Int {
        let absolute = AbsolutePath.of(path)
        return paths.withLock { $0[absolute] ?? 0 }
    }

    /// Throws when `path` is the database file, or a companion file, of a library open in this
    /// process: by its name, or, when it exists, by its device and inode (a link, a symlink, a
    /// relative path).
    package static func refuse(_ path: String) throws {
        let open = paths.withLock { Array($0.keys) }
        guard !open.isEmpty else { return }
        let target = identity(of: path)
        let absolute = AbsolutePath.of(path)
        for database in open {
            for file in [database] + companionSuffixes.map({ database + $0 }) {
                let same = file == absolute || (target != nil && target == identity(of: file))
                if same { throw StorageError(.misuse, path: path, message: refusal(of: file, database: database)) }
            }
        }
    }

    private static func refusal(of file: String, database: String) -> String {
        file == database ? "that is an open library's database file; use a copy (a backup) instead"
            : "that is a file SQLite keeps beside the open library \(database); use another path"
    }

    private static func identity(of path: String) -> FileIdentity? {
        if case let .file(identity) = FileIdentity.lookUp(path) { return identity }
        return nil
    }
}
