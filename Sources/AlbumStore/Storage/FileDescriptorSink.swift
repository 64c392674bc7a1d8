#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A sink that writes to a file descriptor (a file, a pipe, standard output) through a buffer.
///
/// Bytes go to the descriptor whenever the buffer fills and on `flush()`, so memory stays at one
/// buffer however long the output. `write(2)` is retried when a signal interrupts it and continued
/// after a partial write. The sink does not close the descriptor. Ignore `SIGPIPE`
/// (`signal(SIGPIPE, SIG_IGN)`) to get `ByteSinkError.brokenPipe` instead of being killed when
/// the reader goes away.
package final class FileDescriptorSink: ByteSink {
    /// The descriptor written to.
    package let fileDescriptor: Int32
    private let capacity: Int
    private var buffer: [UInt8] = []
    /// The `OpenFile` whose descriptor this is, kept open as long as the sink (`OpenFile.sink()`).
    var file: OpenFile?

    /// A sink for `fileDescriptor`, e.g. `STDOUT_FILENO`.
    ///
    /// - Parameter bufferSize: Bytes held before they are written (default 64 KiB); writes of at
    ///   least this size go straight to the descriptor.
    package init(fileDescriptor: Int32, bufferSize: Int = 64 * 1024) {
        precondition(bufferSize > 0, "the buffer holds at least one byte")
        self.fileDescriptor = fileDescriptor
        capacity = bufferSize
        buffer.reserveCapacity(bufferSize)
    }

    /// Buffers `bytes`, first writing out the buffer when they do not fit.
    ///
    /// - Throws: `ByteSinkError.brokenPipe` when the reader went away, `.writeFailed` on any other
    ///   error; the buffered bytes are dropped then.
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > capacity { try flush() }
        if bytes.count >= capacity {
            try writeAll(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    /// Writes out the buffer.
    ///
    /// - Throws: as `write(_:)`; the buffer is empty afterwards either way.
    package func flush() throws {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try buffer.withUnsafeBytes { try writeAll($0) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var rest = bytes
        while let start = rest.baseAddress, !rest.isEmpty {
            let written = systemWrite(fileDescriptor, start, rest.count)
            if written > 0 {
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
                continue
            }
            let code = written < 0 ? errno : EIO
            switch code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                // A non-blocking descriptor (one a parent process set so): wait until it takes more.
                var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, -1)
            case EPIPE:
                throw ByteSinkError.brokenPipe
            default:
                throw ByteSinkError.writeFailed(errno: code)
            }
        }
    }
}

/// `write(2)`: the name `write` inside the sink is its own method.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
