import AlbumStore
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to stdout for long-running commands, which must end quietly (exit 0) on Ctrl-C and
/// when the reader of their output goes away (`albumstore watch | head -1`).
enum Output {
    /// Writes one line and flushes it at once, so a pipe sees each line as it happens.
    static func writeLine(_ line: String) {
        var bytes = Array((line + "\n").utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            let code = written < 0 ? errno : EIO
            if written < 0 && code == EINTR { continue }
            // The reader went away (`watch | head -1`): it has what it wanted. Any other failure
            // (a full disk) is one, reported with exit 1.
            if written <= 0 && code == EPIPE { exit(0) }
            if written <= 0 { AlbumStoreCommand.exit(reporting: ByteSinkError.writeFailed(errno: code), verbose: false) }
            bytes = bytes.dropFirst(written)
        }
    }

    static func exitQuietlyOnInterruptAndClosedPipe() {
        // A closed pipe then fails the write (EPIPE) instead of killing the process.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler { exit(0) }
        interrupt.resume()
        interruptSource = interrupt
    }

    // Kept alive for the life of the process.
    nonisolated(unsafe) private static var interruptSource: DispatchSourceSignal?
}
