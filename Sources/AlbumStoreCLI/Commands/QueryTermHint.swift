import AlbumStore

/// A note for a query term written in another tool's syntax: `artist=miles`, `year>1970`,
/// `year<=1980`, `genre!=jazz`.
///
/// The query language has no `=`, `<` or `>`: such a term is free text (the words "artist" and
/// "miles" in a title or artist), which finds next to nothing. The query still runs as written
/// (free text stays free text, whatever it holds); the note on stderr says how to write the
/// condition that was meant: `artist:miles`, `year:1971..`.
enum QueryTermHint {
    /// The note for `term`, `nil` when it does not look like a field, an operator and a value, or
    /// like an option (which can only be a term after `--`).
    static func hint(for term: String) -> String? {
        if term.hasPrefix("--") && term.count > 2 {
            return "\"\(term)\" is read as a query term, since it comes after --; options go before the --"
        }
        guard let operatorStart = term.firstIndex(where: { "=<>!".contains($0) }) else { return nil }
        let name = term[..<operatorStart].trimming(" ")
        let negation = name.hasPrefix("^") ? "^" : ""
        guard !name.contains(":"), let field = AlbumField(name: String(name.dropFirst(negation.count))),
              let kind = field.queryKind else { return nil }
        var rest = term[operatorStart...]
        let written = ["==", "!=", ">=", "<=", "=", ">", "<"].first { rest.hasPrefix($0) }
        guard let written else { return nil }
        rest = rest.dropFirst(written.count)
        // `artist="miles davis"`: the quotes were meant for the value.
        let value = rest.trimming(" ").trimming("\"")
        guard !value.isEmpty else { return nil }
        let meant: String
        switch (written, kind) {
        case ("=", .text), ("==", .text):
            meant = ShellWord.quoted("\(negation)\(field.name):\(value)") + " (" + ShellWord.quoted("\(negation)\(field.name):=\(value)")
                + " for exactly \(value))"
        case ("!=", _):
            meant = ShellWord.quoted("\(negation.isEmpty ? "^" : "")\(field.name):\(value)")
        case ("=", .number), ("==", .number):
            meant = ShellWord.quoted("\(negation)\(field.name):\(value)")
        case (_, .number):
            meant = ShellWord.quoted("\(negation)\(field.name):\(range(written, value) ?? "FROM..TO")")
        case (_, .text):
            meant = ShellWord.quoted("\(negation)\(field.name):\(value)") + " (text has no order: : finds a part, := all of it)"
        }
        return "\"\(term)\" is searched for as free text; for the field, write \(meant)"
    }

    /// `1971..` for `> 1970`, `..1980` for `<= 1980`: the query language's inclusive ranges.
    private static func range(_ written: String, _ value: String) -> String? {
        guard let number = Int(value) else { return nil }
        switch written {
        case ">": return number == .max ? nil : "\(number + 1).."
        case ">=": return "\(number).."
        case "<": return number == .min ? nil : "..\(number - 1)"
        default: return "..\(number)"
        }
    }

    /// In a line ArgumentParser refused: a term of `query`, `stats` or `export` written with `-`
    /// to negate it (`query -genre:rock`), which it read as an unknown option.
    static func negatedTerm(in arguments: [String]) -> String? {
        let takesTerms = ["query", "stats", "export"].contains(arguments.first ?? "")
            || (arguments.first == "covers" && ["fetch", "export"].contains(arguments.dropFirst().first ?? ""))
        guard takesTerms else { return nil }
        return arguments.prefix { $0 != "--" }.first { word in
            word.hasPrefix("-") && !word.hasPrefix("--") && Int(word) == nil && (word.contains(":") || word.count > 2)
        }
    }

    /// The usage error for such a term: how to negate it, and how to keep the `-`.
    static func negatedTermNote(_ term: String, command: String) -> String {
        "Unknown option '\(term)': to leave out what a term matches, write ^\(term.dropFirst()) "
            + "(or put the terms after --: albumstore \(command) -- \(term))"
    }
}

private extension StringProtocol {
    func trimming(_ characters: String) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
