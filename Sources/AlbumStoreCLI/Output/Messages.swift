import Foundation

/// Writes a message for people to stderr, so stdout carries only data.
///
/// The message is escaped (`TerminalEscaping`): messages quote titles and paths (`Deleted “…”`,
/// `Undid: …`), and a line feed or an escape sequence in one must not reach the terminal raw.
func inform(_ message: String) {
    FileHandle.standardError.write(Data((TerminalEscaping.escaped(message) + "\n").utf8))
}
