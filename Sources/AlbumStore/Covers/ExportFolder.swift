import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder that files are written into by name, each whole or not at all, never through a link
/// planted in it.
///
/// The folder is opened once, and every file is made relative to that descriptor: a folder
/// renamed or swapped for a link meanwhile cannot send a file elsewhere. Each file is first
/// written to a new temporary file (`O_EXCL`: never an existing file or link), then renamed over
/// its name; rename(2) replaces a symbolic link, a link to a folder or a link loop standing
/// there, and never follows it. Names are single components (no `/`), so nothing is written
/// outside the folder.
final class ExportFolder {
    let path: String
    private let descriptor: Int32

    /// Opens the folder at `path` (a link to a folder is followed: the caller named it).
    /// - Throws: `OpenFile.Failure` with `open(2)`'s `errno`.
    init(path: String) throws {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw OpenFile.Failure(errno: errno) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Calls `body` with a sink on a temporary file in the folder, then renames it to `name`,
    /// replacing what is there.
    /// - Throws: `CoverError.file` naming the file when it cannot be written or put in place, or
    ///   what `body` throws; the temporary file is removed then.
    func write(name: String, _ body: (FileDescriptorSink) throws -> Void) throws {
        precondition(!name.isEmpty && !name.contains("/") && name != "." && name != "..", "a name in the folder")
        let target = path.hasSuffix("/") ? path + name : path + "/" + name
        // Renamed over an open library's file, the output would replace the library.
        do { try OpenLibraries.refuse(target) } catch let error as StorageError {
            throw CoverError.file(path: target, reason: error.message)
        }
        let (file, temporary) = try createTemporary(for: name, target: target)
        var placed = false
        defer {
            close(file)
            if !placed { unlinkat(descriptor, temporary, 0) }
        }
        let sink = FileDescriptorSink(fileDescriptor: file)
        do {
            try body(sink)
            try sink.flush()
        } catch is ByteSinkError {
            throw CoverError.file(path: target, reason: "cannot be written")
        }
        guard renameat(descriptor, temporary, descriptor, name) == 0 else {
            throw CoverError.file(path: target, reason: "cannot be written: " + String(cString: strerror(errno)).lowercased())
        }
        placed = true
    }

    /// A new file `.<name>.<random>.tmp` in the folder and its descriptor.
    private func createTemporary(for name: String, target: String) throws -> (Int32, String) {
        while true {
            let temporary = "." + name + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".tmp"
            let file = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            if file >= 0 { return (file, temporary) }
            guard errno == EEXIST || errno == EINTR else {
                throw CoverError.file(path: target, reason: "cannot be written: " + String(cString: strerror(errno)).lowercased())
            }
        }
    }
}
