import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates the missing folders above a file, private to the user (0700).
///
/// Private because a library is someone's own catalog, and because the XDG Base Directory
/// specification asks it of the folders an application creates under `$XDG_DATA_HOME`
/// ("If, when attempting to write a file, the destination directory is non-existent an attempt
/// should be made to create it with permission 0700"). Folders that exist are left as they are.
enum PrivateFolders {
    /// Creates every missing folder above `path`, outermost first.
    /// - Throws: `StorageError` for `path`: `.parentIsAFile` when a file stands where a folder
    ///   should, `.permissionDenied` or `.readOnly` when a folder cannot be created.
    static func create(above path: String) throws {
        var missing: [String] = []
        var folder = FileStatus.folder(of: path)
        search: while true {
            switch FileStatus(path: folder) {
            case .directory: break search
            case .missing:
                missing.append(folder)
                let above = FileStatus.folder(of: folder)
                if above == folder { break search }
                folder = above
            case .regular, .special: throw StorageError(.parentIsAFile, path: path, parent: folder)
            case .failed(let code): throw LibraryFile.refusal(of: path, errno: code)
            }
        }
        for folder in missing.reversed() where mkdir(folder, 0o700) != 0 {
            let code = errno
            // Another process made it meanwhile: fine.
            if code == EEXIST, FileStatus(path: folder) == .directory { continue }
            throw LibraryFile.refusal(of: path, errno: code, creating: folder)
        }
    }
}
