import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What stat(2) says about a path: enough to refuse what SQLite must not open.
///
/// SQLite opens whatever it is given: a device (root's `info --db /dev/null` used to leave a
/// `/dev/null-journal` behind), a FIFO (the open blocks until a writer comes), a typo'd path (it
/// creates the file). So the library looks first and lets SQLite open only a regular file, or
/// nothing at all when the access it was asked for does not create one.
enum FileStatus: Equatable {
    case missing
    case directory
    case regular(File)
    /// A device, FIFO or socket, as a phrase: "a character device".
    case special(String)
    /// stat failed otherwise: `ENOTDIR` (a folder of the path is a file), `EACCES`, `ELOOP`...
    case failed(errno: Int32)

    struct File: Equatable {
        var size: Int64
        /// The permission bits.
        var mode: UInt32
        var device: UInt64
        var inode: UInt64
    }

    /// Follows symbolic links, as SQLite does.
    init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            self = code == ENOENT ? .missing : .failed(errno: code)
            return
        }
        self.init(info)
    }

    /// What an open descriptor is: the file itself, whatever its path points at by now.
    init(fileDescriptor: Int32) {
        var info = stat()
        guard fstat(fileDescriptor, &info) == 0 else {
            self = .failed(errno: errno)
            return
        }
        self.init(info)
    }

    private init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFDIR: self = .directory
        case S_IFREG:
            self = .regular(File(size: Int64(info.st_size), mode: UInt32(info.st_mode & 0o7777),
                                 device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
        case S_IFCHR: self = .special("a character device")
        case S_IFBLK: self = .special("a block device")
        case S_IFIFO: self = .special("a FIFO")
        case S_IFSOCK: self = .special("a socket")
        default: self = .special("not a file")
        }
    }

    /// Whether the calling process may write `path` (access(2): the permission bits, a read-only
    /// file system, an immutable attribute; root passes the permission bits).
    static func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 }

    /// Whether the calling process may read `path`.
    static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// The folder holding `path` ("/" for a path right under the root).
    static func folder(of path: String) -> String {
        // As NSString's deletingLastPathComponent: trailing slashes are not a component.
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = path[..<slash]
        return folder.isEmpty ? "/" : String(folder)
    }

    /// The text of an `errno` value, e.g. "Permission denied".
    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}
