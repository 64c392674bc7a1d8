#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What tells a rescan that a file changed: its size, modification and status-change times, and
/// inode. The status-change time moves with any write or retag, even when a tool puts the old
/// modification time back (navidrome #3817); the inode changes when a file is replaced.
struct FileStamp: Sendable, Hashable {
    var size: Int64
    var mtimeNS: Int64
    var ctimeNS: Int64
    var inode: Int64

    init(size: Int64, mtimeNS: Int64, ctimeNS: Int64, inode: Int64) {
        self.size = size
        self.mtimeNS = mtimeNS
        self.ctimeNS = ctimeNS
        self.inode = inode
    }

    init(_ info: stat) {
        size = Int64(info.st_size)
        #if canImport(Darwin)
        mtimeNS = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        ctimeNS = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
        mtimeNS = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        ctimeNS = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
        inode = Int64(bitPattern: UInt64(info.st_ino))
    }
}
