/// A query or sort that cannot run: text that does not parse, or a condition on a field it does
/// not apply to.
///
/// For parsed text it keeps the input and where the offending token is in it, so the message
/// can show a caret under it:
///
///     unknown field "artst"
///     artst:bowie year:1990..1999
///     ^^^^^
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the token.
    public var reason: String
    /// The query as parsed (arguments joined by spaces, one with a space in quotes); `nil` for a
    /// query built in code.
    public var input: String?
    /// Where the offending token starts in `input`, in characters.
    public var offset: Int
    /// How many characters of `input` it takes (at least 1).
    public var length: Int

    /// An error for `reason`, at `length` characters from `offset` in `input` (at least one).
    public init(_ reason: String, input: String? = nil, offset: Int = 0, length: Int = 1) {
        self.reason = reason
        self.input = input
        self.offset = max(0, offset)
        self.length = max(1, length)
    }

    /// The text of `input` before the token, and the token itself.
    public var located: (before: String, token: String)? {
        guard let input else { return nil }
        let before = String(input.prefix(offset))
        return (before, String(input.dropFirst(offset).prefix(length)))
    }

    /// The reason, then the input and a line with carets under the token (one character a
    /// column; the CLI lines them up by display width).
    public var description: String {
        guard let input, let located else { return reason }
        return reason + "\n" + input + "\n" + String(repeating: " ", count: located.before.count)
            + String(repeating: "^", count: max(1, located.token.count))
    }
}
