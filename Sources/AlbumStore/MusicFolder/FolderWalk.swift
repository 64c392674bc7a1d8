import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The audio files and cover images under a folder, found by reading its folders recursively.
///
/// Names are read as bytes (readdir), never decoded. Symbolic links are followed; a link back
/// to a folder being walked (a loop) and a folder reached twice are reported, not walked again.
/// A folder that cannot be read, or vanishes meanwhile, is reported and the walk goes on.
struct FolderWalk: Sendable {
    struct AudioFile: Sendable {
        let path: RawPath
        let stamp: FileStamp
    }

    private(set) var audioFiles: [AudioFile] = []
    /// Image files named `cover.*`, `folder.*` or `front.*`, by folder.
    private(set) var images: [RawPath: [RawPath]] = [:]
    private(set) var problems: [FolderProblem] = []
    /// Folders that could not be read: what was known under them is kept, not taken as gone.
    private(set) var unreadFolders: [RawPath] = []

    /// The file name extensions read as audio (lowercase).
    static let audioExtensions: Set<String> = [
        "mp3", "mp2", "flac", "m4a", "m4b", "mp4", "alac", "ogg", "oga", "opus", "spx", "wav", "wave",
        "aif", "aiff", "aifc", "wma", "wv", "ape", "mpc", "tta",
    ]
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp"]
    static let coverNames: [String] = ["cover", "folder", "front"]

    /// Walks `root`, a folder.
    init(root: RawPath, isCancelled: () -> Bool) throws {
        var visited: Set<[UInt64]> = []
        try walk(root, ancestors: [], visited: &visited, isCancelled: isCancelled)
        audioFiles.sort { $0.path < $1.path }
    }

    private mutating func walk(
        _ folder: RawPath, ancestors: [[UInt64]], visited: inout Set<[UInt64]>, isCancelled: () -> Bool
    ) throws {
        if isCancelled() { throw CancellationError() }
        guard let directory = folder.withCString({ opendir($0) }) else {
            let code = errno
            note(folder, code == ENOENT ? "vanished during the scan" : "cannot be read: \(FileStatus.describe(code))",
                 unread: code != ENOENT)
            return
        }
        // The open folder's identity, without looking its path up again.
        var info = stat()
        let identity: [UInt64]? = fstat(dirfd(directory), &info) == 0 ? [UInt64(info.st_dev), UInt64(info.st_ino)] : nil
        guard let identity else {
            note(folder, "cannot be read: \(FileStatus.describe(errno))", unread: true)
            closedir(directory)
            return
        }
        if ancestors.contains(identity) {
            problems.append(FolderProblem(path: folder.display, reason: "a symbolic link loop (not followed)", isSkipped: true))
            closedir(directory)
            return
        }
        guard visited.insert(identity).inserted else {
            problems.append(FolderProblem(
                path: folder.display, reason: "a folder already scanned through another path (not scanned twice)",
                isSkipped: true))
            closedir(directory)
            return
        }
        // Each entry is stat'ed by its name in the open folder: the kernel then looks up one
        // name, not every folder of the path again.
        var entries: [(name: [UInt8], info: stat, error: Int32)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix(while: { $0 != 0 }))
            }
            if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
            var info = stat()
            let failed = RawPath(name).withCString { fstatat(dirfd(directory), $0, &info, 0) } != 0
            entries.append((name, info, failed ? errno : 0))
        }
        closedir(directory)   // before the subfolders: one open folder at a time, however deep
        entries.sort { RawPath($0.name) < RawPath($1.name) }
        var subfolders: [RawPath] = []
        for (name, info, error) in entries {
            let path = folder.appending(name)
            let kind = Self.fileExtension(name)
            guard error == 0 else {
                let code = error
                // A dangling link to something that is not audio is nothing to report.
                if code == ENOENT, !Self.audioExtensions.contains(kind) { continue }
                if code == ELOOP {
                    problems.append(FolderProblem(path: path.display, reason: "a symbolic link loop (not followed)", isSkipped: true))
                } else {
                    note(path, code == ENOENT ? "vanished during the scan" : "cannot be read: \(FileStatus.describe(code))",
                         unread: false)
                }
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: subfolders.append(path)
            case S_IFREG:
                if Self.audioExtensions.contains(kind) {
                    audioFiles.append(AudioFile(path: path, stamp: FileStamp(info)))
                } else if Self.imageExtensions.contains(kind), Self.isCoverName(name) {
                    images[folder, default: []].append(path)
                }
            default: continue
            }
        }
        for subfolder in subfolders {
            try walk(subfolder, ancestors: ancestors + [identity], visited: &visited, isCancelled: isCancelled)
        }
    }

    private mutating func note(_ path: RawPath, _ reason: String, unread: Bool) {
        problems.append(FolderProblem(path: path.display, reason: reason, isSkipped: true))
        if unread { unreadFolders.append(path) }
    }

    /// The lowercase extension of a file name ("" without one).
    static func fileExtension(_ name: some BidirectionalCollection<UInt8>) -> String {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return "" }
        return String(decoding: name[name.index(after: dot)...], as: UTF8.self).lowercased()
    }

    /// Whether a file's name, less its extension, is one of `coverNames` (any case).
    static func isCoverName(_ name: [UInt8]) -> Bool {
        coverIndex(RawPath(name)) != nil
    }

    /// The rank of an image's name among `coverNames` (cover first), or `nil`.
    static func coverIndex(_ path: RawPath) -> Int? {
        let name = path.name
        let stem = name.lastIndex(of: UInt8(ascii: ".")).map { name[name.startIndex..<$0] } ?? name
        return coverNames.firstIndex(of: String(decoding: stem, as: UTF8.self).lowercased())
    }
}
