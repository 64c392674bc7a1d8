/// One word of a query: a shell argument, or a run of a query string between spaces (quotes
/// removed), with where it stands in the input, for error carets.
///
/// Escapes stay in `text` for `QueryParser` (`\:` is a colon that separates nothing); inside
/// quotes of a query string the characters that mean something (`:`, `*`, `^`, `-`, `,`) are
/// escaped by the tokenizer, so `"AC:DC"` is the text AC:DC.
struct QueryToken: Sendable, Hashable {
    var text: String
    /// Characters into the input.
    var offset: Int
    /// Characters of the input it spans, quotes included.
    var length: Int

    static let quotedSpecials: Set<Character> = [":", "*", "^", "-", ","]

    /// The tokens of shell arguments, and the input they are shown as: the arguments joined by
    /// spaces, an argument that is empty or holds white space in double quotes. Double quotes
    /// inside an argument group as in a query string (the shell has taken its own):
    /// `'artist:"Miles Davis"'` is the artist Miles Davis.
    /// - Throws: `QueryError` for a quote left open in an argument.
    static func tokens(ofArguments arguments: [String]) throws(QueryError) -> (tokens: [QueryToken], input: String) {
        var shown: [(argument: String, text: String, offset: Int)] = [], input = ""
        for argument in arguments {
            if !input.isEmpty { input += " " }
            let text = argument.isEmpty || argument.contains(where: \.isWhitespace) ? "\"\(argument)\"" : argument
            shown.append((argument, text, input.count))
            input += text
        }
        var tokens: [QueryToken] = []
        for (argument, text, offset) in shown {
            let unquoted: [QueryToken]
            do {
                unquoted = try scan(argument, splittingOnWhitespace: false)
            } catch {
                let start = offset + (text == argument ? 0 : 1)
                throw QueryError(error.reason, input: input, offset: start + error.offset, length: error.length)
            }
            tokens.append(QueryToken(text: unquoted.first?.text ?? "", offset: offset, length: text.count))
        }
        return (tokens, input)
    }

    /// The tokens of a query string: white space separates them outside double quotes; `\"` is
    /// a quote character.
    /// - Throws: `QueryError` for a quote left open.
    static func tokens(ofText input: String) throws(QueryError) -> [QueryToken] {
        try scan(input, splittingOnWhitespace: true)
    }

    private static func scan(_ input: String, splittingOnWhitespace: Bool) throws(QueryError) -> [QueryToken] {
        var tokens: [QueryToken] = []
        var text = "", start: Int?, quoteAt: Int?
        var characters = Array(input).makeIterator()
        var offset = 0
        func finish() {
            if let begin = start { tokens.append(QueryToken(text: text, offset: begin, length: offset - begin)) }
            text = ""
            start = nil
        }
        while let character = characters.next() {
            defer { offset += 1 }
            if splittingOnWhitespace && character.isWhitespace && quoteAt == nil {
                finish()
                continue
            }
            if start == nil { start = offset }
            switch character {
            case "\"":
                quoteAt = quoteAt == nil ? offset : nil
            case "\\":
                guard let next = characters.next() else {
                    text.append(character)
                    continue
                }
                offset += 1
                // `\"` is a quote character; any other escape is the parser's.
                if next != "\"" { text.append(character) }
                text.append(next)
            default:
                if quoteAt != nil && quotedSpecials.contains(character) { text.append("\\") }
                text.append(character)
            }
        }
        if let quoteAt {
            throw QueryError("a quote is opened here and never closed", input: input, offset: quoteAt, length: 1)
        }
        finish()
        return tokens
    }
}
