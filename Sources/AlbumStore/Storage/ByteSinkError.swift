import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why bytes could not be written to a sink.
package enum ByteSinkError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The reader went away (`EPIPE`), as when `albumstore list | head -1` has read its line.
    ///
    /// Not a failure for a command-line tool: stop writing and exit 0, quietly. Seen only when
    /// `SIGPIPE` is ignored; otherwise the signal ends the process first.
    case brokenPipe
    /// `write(2)` failed with this `errno`.
    case writeFailed(errno: Int32)

    package var description: String {
        switch self {
        case .brokenPipe:
            "the output's reader went away (broken pipe)"
        case let .writeFailed(code):
            "cannot write the output: \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}
