import AlbumStore
import ArgumentParser
import FoundationEssentials

/// How the CLI reports a query (or `--sort`) that does not parse: the reason on one line, then
/// the query and carets under the offending token, lined up by display width, and exit 2 (a
/// usage error).
///
///     albumstore: unknown field "artst" (albumstore fields lists them)
///       artst:bowie year:1990..1999
///       ^^^^^
enum QueryErrorMessage {
    /// The stderr lines for `error`; `context` names where the text came from (`--sort`).
    static func lines(for error: QueryError, context: String? = nil) -> [String] {
        let reason = "albumstore: " + (context.map { "\($0): " } ?? "") + TerminalEscaping.escaped(error.reason + hint(for: error.reason))
        guard let input = error.input, let located = error.located else { return [reason] }
        // Widths of the escaped text, as the terminal shows it.
        let before = DisplayWidth.of(TerminalEscaping.escaped(located.before))
        let token = max(1, DisplayWidth.of(TerminalEscaping.escaped(located.token)))
        return [reason, "  " + TerminalEscaping.escaped(input),
                "  " + String(repeating: " ", count: before) + String(repeating: "^", count: token)]
    }

    /// The command that lists the fields, after a reason that names one the query or sort cannot
    /// use: the library's sentence names no command.
    static func hint(for reason: String) -> String {
        if reason.hasPrefix("unknown field ") { return " (albumstore fields lists them)" }
        if reason.hasPrefix("a query cannot name the field ") { return " (albumstore fields lists those it can)" }
        if reason.hasPrefix("cannot sort by ") { return " (albumstore fields lists the fields)" }
        return ""
    }

    /// Runs `parse`; a `QueryError` is printed on stderr and becomes exit status 2.
    static func parsing<T>(context: String? = nil, _ parse: () throws -> T) throws -> T {
        do {
            return try parse()
        } catch let error as QueryError {
            writeToStandardError(lines(for: error, context: context).map { $0 + "\n" }.joined())
            throw ExitCode(2)
        }
    }
}
