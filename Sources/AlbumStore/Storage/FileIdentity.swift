import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path names: its device and inode numbers, which stay the same while the file is
/// written or renamed, and differ once another file takes the path.
///
/// A change feed compares the identity of its library's path with the one it opened, because
/// its connection keeps reading the file it opened: after `rm library.sqlite`, or a backup moved
/// into its place, it would otherwise wait forever for changes that can no longer come.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// What is at a path now.
    enum Lookup: Equatable {
        case file(FileIdentity)
        /// Nothing (the path or a folder on it is gone).
        case missing
        /// The path could not be looked at (say its folder is unreadable): nothing is known.
        case unknown
    }

    /// What is at `path` now.
    static func lookUp(_ path: String) -> Lookup {
        var info = stat()
        guard stat(path, &info) == 0 else { return errno == ENOENT || errno == ENOTDIR ? .missing : .unknown }
        return .file(FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }
}
