import AlbumStore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the CLI asks of the terminal it may be writing to: is a file descriptor one, and how
/// many columns wide is it.
enum Terminal {
    /// Whether `fileDescriptor` is a terminal (`isatty(3)`): a person reads it, so tables are cut
    /// to fit its width; a pipe or file gets everything.
    static func isTerminal(_ fileDescriptor: Int32) -> Bool {
        isatty(fileDescriptor) == 1
    }

    /// The width in columns of the terminal at `fileDescriptor`: what the kernel says
    /// (`TIOCGWINSZ`), else `$COLUMNS`, else 80.
    ///
    /// The kernel first, as it follows resizes and `$COLUMNS` is often stale or not exported; a
    /// terminal that reports 0 columns (a pseudo-terminal nobody sized, a serial line) counts as
    /// not saying.
    static func columns(of fileDescriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        var size = winsize()
        if ioctl(fileDescriptor, windowSizeRequest, &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let text = environment["COLUMNS"], let columns = Int(text.trimmingWhitespace()), columns > 0 {
            return columns
        }
        return 80
    }
}

#if canImport(Darwin)
/// `TIOCGWINSZ`, which Swift cannot import on Darwin (a function-like macro): `_IOR('t', 104, struct winsize)`.
private let windowSizeRequest: UInt = 0x4008_7468
#else
private let windowSizeRequest = UInt(TIOCGWINSZ)
#endif
