import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Notices when the reader of stdout goes away, as `tail -f` does.
enum StdoutReader {
    /// Ends the process quietly (exit 0) as soon as stdout's reader has gone, even while nothing
    /// is written: an idle `albumstore watch | head -1` would otherwise live on until the next
    /// change set fails to be written.
    ///
    /// A thread blocks in `poll(2)` on stdout asking for no event at all: the kernel still
    /// reports `POLLERR` (a pipe whose read end was closed, on Linux) and `POLLHUP` (a hung-up
    /// terminal or socket), and nothing ever for a file. Blocked, it costs nothing (Dispatch
    /// starts other threads for other work).
    static func exitWhenGone() {
        DispatchQueue(label: "stdout reader").async {
            var stdout = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
            while true {
                let ready = poll(&stdout, 1, -1)
                if ready < 0 && errno == EINTR { continue }
                if ready > 0 && stdout.revents & Int16(POLLERR | POLLHUP) != 0 { exit(0) }
                return   // POLLNVAL (stdout is closed) or an error: nothing to watch
            }
        }
    }
}
