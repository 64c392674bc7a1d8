import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file descriptor opened for reading or writing, closed when the value goes away (or by
/// `close()`), or one of the standard streams, which is never closed.
///
/// Ours rather than Foundation's `FileHandle`, which only Foundation's full module has: the
/// library needs FoundationEssentials alone, so that the `albumstore` binary starts fast (see
/// `scripts/release-build`). Write many small pieces through `sink()` (a `FileDescriptorSink`).
package final class OpenFile {
    /// The descriptor, valid until `close()`.
    package let fileDescriptor: Int32
    private var isOpen = true
    private let closes: Bool

    private init(fileDescriptor: Int32, closes: Bool) {
        self.fileDescriptor = fileDescriptor
        self.closes = closes
    }

    deinit { close() }

    /// Standard input, left open.
    package static var standardInput: OpenFile { OpenFile(fileDescriptor: STDIN_FILENO, closes: false) }

    /// Opens the file at `path` for reading.
    /// - Throws: `OpenFile.Failure` with `open(2)`'s `errno`.
    package static func reading(_ path: String) throws -> OpenFile {
        try opening(path, flags: O_RDONLY)
    }

    /// Opens the file at `path` for reading without waiting: a FIFO with no writer opens at once
    /// (`O_NONBLOCK`) instead of blocking, so that the caller can look at what it opened
    /// (`FileStatus(fileDescriptor:)`) before it reads. Reads of a regular file ignore the flag.
    static func readingWithoutWaiting(_ path: String) throws -> OpenFile {
        try opening(path, flags: O_RDONLY | O_NONBLOCK)
    }

    /// Opens the file at `path` for writing, creating it with `permissions` or emptying it.
    ///
    /// A symbolic link at `path` is refused, never written through (`O_NOFOLLOW`): a link planted
    /// where an output file goes would otherwise have the output replace whatever file it names.
    /// - Throws: `OpenFile.Failure` with `open(2)`'s `errno`, and a refusal for a symbolic link.
    package static func writing(_ path: String, permissions: mode_t = 0o644) throws -> OpenFile {
        do {
            return try opening(path, flags: O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, permissions: permissions)
        } catch let failure as Failure where failure.errno == ELOOP {
            throw Failure(errno: ELOOP, refusal: Self.symbolicLinkRefusal)
        }
    }

    /// Why an output path that is a symbolic link is not written.
    static let symbolicLinkRefusal = "a symbolic link; refusing to write through it (name the file it points to, or another path)"

    /// Refuses the files of a library open in this process first (`OpenLibraries`).
    private static func opening(_ path: String, flags: Int32, permissions: mode_t = 0) throws -> OpenFile {
        do { try OpenLibraries.refuse(path) } catch let error as StorageError {
            throw Failure(errno: EBUSY, refusal: error.message)
        }
        while true {
            let descriptor = open(path, flags | O_CLOEXEC, permissions)
            if descriptor >= 0 { return OpenFile(fileDescriptor: descriptor, closes: true) }
            if errno != EINTR { throw Failure(errno: errno) }
        }
    }

    /// Up to `count` bytes, fewer only at the end of the file (empty there).
    /// - Throws: `OpenFile.Failure` with `read(2)`'s `errno`.
    package func read(upToCount count: Int) throws -> Data {
        var data = Data(count: count)
        var filled = 0
        try data.withUnsafeMutableBytes { buffer in
            while filled < count {
                let got = systemRead(fileDescriptor, buffer.baseAddress! + filled, count - filled)
                if got > 0 { filled += got; continue }
                if got == 0 { break }
                if errno != EINTR { throw Failure(errno: errno) }
            }
        }
        data.count = filled
        return data
    }

    /// Writes all of `data` at once.
    /// - Throws: `ByteSinkError` with `write(2)`'s `errno`.
    package func write(contentsOf data: Data) throws {
        // A sink of one byte buffers nothing: every write goes straight to the descriptor.
        try data.withUnsafeBytes { try sink(bufferSize: 1).write($0) }
    }

    /// A buffered writer to this file, which keeps it open; flush it before closing.
    package func sink(bufferSize: Int = 64 * 1024) -> FileDescriptorSink {
        let sink = FileDescriptorSink(fileDescriptor: fileDescriptor, bufferSize: bufferSize)
        sink.file = self
        return sink
    }

    /// Closes the descriptor (once; a standard stream stays open).
    package func close() {
        guard isOpen else { return }
        isOpen = false
        if closes { _ = systemClose(fileDescriptor) }
    }

    /// Why a file could not be opened or read: `errno`, and the system's words for it.
    package struct Failure: Error, Equatable, CustomStringConvertible {
        package let errno: Int32
        /// Why the library itself refused the path (an open library's own file), if it did.
        var refusal: String?

        init(errno: Int32, refusal: String? = nil) {
            self.errno = errno
            self.refusal = refusal
        }

        /// The system's message in lower case, as error lines put it: "no such file or directory".
        package var description: String { refusal ?? String(cString: strerror(errno)).lowercased() }
    }
}

/// `read(2)` and `close(2)`: inside `OpenFile` those names are its own methods.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
