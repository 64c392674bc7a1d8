import FoundationEssentials

/// Turns query tokens into an `AlbumQuery`: the language of the query section of docs/cli.md.
///
/// `word`, `"two words"`, `bow*`: full-text search; `field:value` substring, `field:=value`
/// exact, `field::regex`, `field:` missing, `year:1990..1999` (either end open) and `year:1994`;
/// `^term` (or `-term`, or `NOT term`) negates; `AND` is the same as a space; `OR` or a lone `,`
/// separates alternatives. `\:` is a colon that separates nothing (likewise `\*`, `\^`, `\-`,
/// `\,`, `\\`); other backslashes are text.
struct QueryParser {
    let input: String

    func parse(_ tokens: [QueryToken]) throws(QueryError) -> AlbumQuery {
        var alternatives: [[AlbumQuery.Term]] = [[]]
        var separator: QueryToken?
        // `AND` joins as a space does, `NOT` negates as `^` does: people type them, and as words
        // they would silently match nothing.
        var joiner: QueryToken?
        var negation: QueryToken?
        for token in tokens {
            if let pending = negation, Self.isKeyword(token) {
                throw error("NOT negates nothing: put a term right after it", at: pending)
            }
            switch token.text {
            case "OR", ",", "AND":
                guard let last = alternatives.last, !last.isEmpty, joiner == nil else {
                    throw error("\(token.text) has no terms before it", at: token)
                }
                if token.text == "AND" {
                    joiner = token
                } else {
                    alternatives.append([])
                    separator = token
                }
            case "NOT":
                negation = token
            default:
                var term = try term(token)
                if let pending = negation {
                    guard !term.isNegated else { throw error("NOT and ^ together negate twice: use one", at: pending) }
                    term.isNegated = true
                }
                alternatives[alternatives.count - 1].append(term)
                joiner = nil
                negation = nil
            }
        }
        if let pending = negation { throw error("NOT negates nothing: put a term right after it", at: pending) }
        if let dangling = joiner ?? (alternatives.last?.isEmpty == true ? separator : nil) {
            throw error("\(dangling.text) has no terms after it", at: dangling)
        }
        return AlbumQuery(anyOf: alternatives)
    }

    /// `OR`, `,`, `AND` and `NOT`: the words that join or negate terms (in capitals; `and`,
    /// `or` and `not` are words to search for).
    private static func isKeyword(_ token: QueryToken) -> Bool {
        ["OR", ",", "AND", "NOT"].contains(token.text)
    }

    private func term(_ token: QueryToken) throws(QueryError) -> AlbumQuery.Term {
        var text = Substring(token.text)
        var skipped = 0
        let negated = text.first == "^" || text.first == "-"
        if negated {
            text = text.dropFirst()
            skipped = 1
            guard !text.isEmpty else { throw error("\(token.text) negates nothing: put the term right after it", at: token) }
        }
        guard !text.isEmpty else { throw error("an empty term: give a word or field:value", at: token) }
        guard let colon = Self.firstUnescapedColon(in: text) else {
            return AlbumQuery.Term(try fullText(text, token: token), negated: negated)
        }
        let name = Self.unescaped(text[..<colon])
        let nameToken = QueryToken(text: name, offset: token.offset + skipped, length: text.distance(from: text.startIndex, to: colon))
        guard let field = AlbumField(name: name) else {
            throw error("unknown field \"\(name)\"", at: nameToken)
        }
        guard let kind = field.queryKind else {
            throw error("a query cannot name the field \(field.name)", at: nameToken)
        }
        let value = text[text.index(after: colon)...]
        let valueToken = QueryToken(
            text: String(value), offset: token.offset + skipped + text.distance(from: text.startIndex, to: colon) + 1,
            length: max(1, value.count))
        return AlbumQuery.Term(try condition(field, kind, value, token: valueToken), negated: negated)
    }

    private func condition(_ field: AlbumField, _ kind: AlbumField.QueryKind, _ value: Substring, token: QueryToken)
        throws(QueryError) -> AlbumQuery.Condition {
        if value.isEmpty { return .missing(field) }
        switch (kind, value.first) {
        case (.text, ":"):
            let pattern = String(value.dropFirst())
            guard !pattern.isEmpty else { throw error("\(field.name):: needs a regular expression after it", at: token) }
            if let problem = Self.regexProblem(pattern) {
                let at = QueryToken(text: pattern, offset: token.offset + 1, length: pattern.count)
                throw error("bad regular expression \"\(pattern)\": \(problem)", at: at)
            }
            return .regex(field, pattern)
        case (.text, "="):
            let exact = Self.unescaped(value.dropFirst())
            guard !exact.isEmpty else { return .missing(field) }
            return .equals(field, exact)
        case (.text, _):
            return .contains(field, Self.unescaped(value))
        case (.number, "="):
            let number = try number(value.dropFirst(), field: field, token: token)
            return .range(field, from: number, through: number)
        case (.number, _):
            return try range(Self.unescaped(value), field: field, token: token)
        }
    }

    private func range(_ value: String, field: AlbumField, token: QueryToken) throws(QueryError) -> AlbumQuery.Condition {
        guard let dots = value.firstRange(of: "..") else {
            let number = try number(Substring(value), field: field, token: token)
            return .range(field, from: number, through: number)
        }
        let lower = value[..<dots.lowerBound], upper = value[dots.upperBound...]
        guard !(lower.isEmpty && upper.isEmpty) else {
            throw error("\(field.name):.. needs a bound on at least one side (\(field.name):1990..1999)", at: token)
        }
        let from = lower.isEmpty ? nil : try number(lower, field: field, token: token)
        let through = upper.isEmpty ? nil : try number(upper, field: field, token: token)
        if let from, let through, from > through {
            throw error("\(field.name):\(value) is an empty range: \(from) is after \(through)", at: token)
        }
        return .range(field, from: from, through: through)
    }

    private func number(_ text: Substring, field: AlbumField, token: QueryToken) throws(QueryError) -> Int {
        guard let number = Int(text) else {
            throw error("\(field.name) takes a number or a range (\(field.name):1994, \(field.name):1990..1999), not \"\(token.text)\"",
                        at: token)
        }
        return number
    }

    private func fullText(_ text: Substring, token: QueryToken) throws(QueryError) -> AlbumQuery.Condition {
        // A `*` ends a prefix search unless escaped.
        let prefix = text.hasSuffix("*") && !text.hasSuffix("\\*")
        let words = Self.unescaped(prefix ? text.dropLast() : text)
        guard !words.trimmingWhitespace().isEmpty else {
            throw error("\(token.text): a prefix search needs a word before the *", at: token)
        }
        return .text(words, prefix: prefix)
    }

    private func error(_ reason: String, at token: QueryToken) -> QueryError {
        QueryError(reason, input: input, offset: token.offset, length: token.length)
    }

    // MARK: Escapes

    static let escapable: Set<Character> = [":", "*", "^", "-", ",", "\\", "="]

    /// Where the first `:` not escaped by a backslash is.
    static func firstUnescapedColon(in text: Substring) -> Substring.Index? {
        var index = text.startIndex
        while index < text.endIndex {
            switch text[index] {
            case "\\":
                index = text.index(after: index)
                if index < text.endIndex { index = text.index(after: index) }
            case ":": return index
            default: index = text.index(after: index)
            }
        }
        return nil
    }

    /// `text` with its escapes resolved: `\` before one of `escapable` is dropped; any other
    /// backslash is text.
    static func unescaped(_ text: Substring) -> String {
        var result = "", pendingBackslash = false
        for character in text {
            if pendingBackslash {
                if !escapable.contains(character) { result.append("\\") }
                result.append(character)
                pendingBackslash = false
            } else if character == "\\" {
                pendingBackslash = true
            } else {
                result.append(character)
            }
        }
        if pendingBackslash { result.append("\\") }
        return result
    }

    /// Why `pattern` is not a regular expression the `regexp` SQL function can use; `nil` when it
    /// is. One that could make a single match slow is refused before compiling (`RegexShape`).
    static func regexProblem(_ pattern: String) -> String? {
        if let problem = RegexShape.problem(in: pattern) { return problem }
        do {
            _ = try POSIXRegex(pattern)
        } catch {
            return "it does not compile as a POSIX extended regular expression (\(error))"
        }
        return nil
    }
}

extension AlbumQuery {
    /// Parses a query string: white space separates terms, double quotes group words
    /// (`artist:"david bowie"`).
    /// - Throws: `QueryError` naming the offending token and where it is.
    public init(parsing text: String) throws(QueryError) {
        self = try QueryParser(input: text).parse(try QueryToken.tokens(ofText: text))
    }

    /// Parses shell arguments, one term each (`["artist:david bowie", "year:1977"]`): an
    /// argument's spaces belong to its value or phrase.
    /// - Throws: `QueryError`, whose `input` shows the arguments joined by spaces.
    public init(parsingArguments arguments: [String]) throws(QueryError) {
        let (tokens, input) = try QueryToken.tokens(ofArguments: arguments)
        self = try QueryParser(input: input).parse(tokens)
    }
}
