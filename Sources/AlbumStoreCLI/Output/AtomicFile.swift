import AlbumStore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file whole or not at all: into a temporary file in the same folder, synced, then
/// renamed over the destination (a rename within one file system is atomic).
enum AtomicFile {
    /// Calls `body` with a sink on the temporary file, then puts the file in place.
    /// - Throws: `AtomicFileError` when the file cannot be made or put in place, or what `body`
    ///   throws; the temporary file is removed then.
    static func write(to path: String, _ body: (FileDescriptorSink) throws -> Void) throws {
        // Renamed over an open library's file, the output would replace the library.
        try OpenLibraries.refuse(path)
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var template = Array((folder + "/.\(url.lastPathComponent).XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else { throw AtomicFileError(path: path, errno: errno) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var placed = false
        defer {
            close(descriptor)
            if !placed { unlink(temporary) }
        }
        try body(FileDescriptorSink(fileDescriptor: descriptor))
        // Files are made 0600 by mkstemp; an export is an ordinary file.
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        guard fsync(descriptor) == 0, rename(temporary, path) == 0 else { throw AtomicFileError(path: path, errno: errno) }
        placed = true
    }
}

/// A file `AtomicFile` could not write.
struct AtomicFileError: Error, CustomStringConvertible {
    let path: String
    let errno: Int32

    var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
}
