import AlbumStore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a message for people to stderr, so stdout carries only data.
///
/// The message is escaped (`TerminalEscaping`): messages quote titles and paths (`Deleted “…”`,
/// `Undid: …`), and a line feed or an escape sequence in one must not reach the terminal raw.
func inform(_ message: String) {
    writeToStandardError(TerminalEscaping.escaped(message) + "\n")
}

/// Writes `text` to stderr as it is, at once. A failure there is ignored: there is nowhere left
/// to report it.
func writeToStandardError(_ text: String) {
    let stderr = FileDescriptorSink(fileDescriptor: STDERR_FILENO)
    try? stderr.write(text)
    try? stderr.flush()
}
