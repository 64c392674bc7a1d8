/// The shape of a regular expression that backtracking can take exponential time over: a
/// group repeated (`*`, `+`, `{2,}`...) whose own content repeats or has alternatives, as in
/// `(a+)+b`, `(\w+\s*)*$` or `(a|aa)*b`. On a value that nearly matches (29 a's for `(a+)+b`)
/// the engine tries every way of splitting it between the repetitions, and Swift's `Regex`
/// cannot be stopped in the middle of one match, so such a pattern is refused before it runs.
///
/// The scan is a conservative reading of the pattern's syntax: escapes, character classes and
/// comments are skipped; a pattern refused here can nearly always be written with one level of
/// repetition (`a+b`, `[ab]*`).
enum RegexShape {
    /// Why `pattern` can backtrack exponentially; `nil` when it has no such group.
    static func exponentialRepetition(in pattern: String) -> String? {
        let characters = Array(pattern.unicodeScalars)
        /// Per open group: whether its content repeats, and whether it has alternatives.
        var groups: [(repeats: Bool, alternates: Bool)] = [(false, false)]
        var index = 0
        while index < characters.count {
            let character = characters[index]
            index += 1
            switch character {
            case "\\":
                index = afterEscape(characters, at: index)
            case "[":
                index = afterClass(characters, at: index)
            case "(":
                if index + 1 < characters.count, characters[index] == "?", characters[index + 1] == "#" {
                    while index < characters.count, characters[index] != ")" { index += 1 }
                    index += 1
                    continue
                }
                // `(?:`, `(?<name>`, `(?i)`: the `?` is syntax, not a quantifier.
                if index < characters.count, characters[index] == "?" { index += 1 }
                groups.append((false, false))
            case ")" where groups.count > 1:
                let group = groups.removeLast()
                let (repeats, next) = repetition(characters, at: index)
                index = next
                if repeats && (group.repeats || group.alternates) {
                    return group.repeats
                        ? "a repeated group repeats inside, as in (a+)+, which can take exponential time; use one level of repetition"
                        : "a repeated group has alternatives, as in (a|aa)*, which can take exponential time; use a character class or one alternative"
                }
                groups[groups.count - 1].repeats = groups[groups.count - 1].repeats || group.repeats || repeats
                groups[groups.count - 1].alternates = groups[groups.count - 1].alternates || group.alternates
            case "|":
                groups[groups.count - 1].alternates = true
            default:
                break
            }
            // A quantifier after an atom (a character, a class, an escape).
            if character != "(" && character != ")" && character != "|" {
                let (repeats, next) = repetition(characters, at: index)
                index = next
                if repeats { groups[groups.count - 1].repeats = true }
            }
        }
        return nil
    }

    /// Reads a quantifier at `index`, if any: whether it repeats (more than once), and where the
    /// pattern goes on. A lazy or possessive mark after it is part of it.
    private static func repetition(_ characters: [Unicode.Scalar], at index: Int) -> (repeats: Bool, next: Int) {
        guard index < characters.count else { return (false, index) }
        var next = index
        let repeats: Bool
        switch characters[index] {
        case "*", "+":
            repeats = true
            next += 1
        case "?":
            repeats = false
            next += 1
        case "{":
            // `{n}`, `{n,}`, `{n,m}`, `{,m}`; anything else is a literal brace.
            guard let end = characters[index...].firstIndex(of: "}") else { return (false, index) }
            let bounds = String(String.UnicodeScalarView(characters[(index + 1)..<end]))
            let parts = bounds.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.allSatisfy({ $0.allSatisfy(\.isASCII) && ($0.isEmpty || Int($0) != nil) }),
                  parts.contains(where: { !$0.isEmpty })
            else { return (false, index) }
            // The most it repeats: the upper bound, the count alone, or none (`{2,}`).
            let most = parts.count == 2 ? Int(parts[1]) : Int(parts[0])
            repeats = most.map { $0 > 1 } ?? true
            next = end + 1
        default:
            return (false, index)
        }
        if next < characters.count, characters[next] == "?" || characters[next] == "+" { next += 1 }
        return (repeats, next)
    }

    /// Where the pattern goes on after the escape whose backslash is just before `index`:
    /// `\Q...\E` is quoted text, and `\p{...}`, `\x{...}` and the like take their braces.
    private static func afterEscape(_ characters: [Unicode.Scalar], at index: Int) -> Int {
        guard index < characters.count else { return index }
        let escaped = characters[index]
        var next = index + 1
        if escaped == "Q" {
            while next + 1 < characters.count, !(characters[next] == "\\" && characters[next + 1] == "E") { next += 1 }
            return min(characters.count, next + 2)
        }
        if "pPxuoNkg".unicodeScalars.contains(escaped), next < characters.count, characters[next] == "{" {
            while next < characters.count, characters[next] != "}" { next += 1 }
            next += 1
        }
        return min(characters.count, next)
    }

    /// Where the pattern goes on after the character class whose `[` is just before `index`,
    /// nested classes (`[a-z--[aeiou]]`) included.
    private static func afterClass(_ characters: [Unicode.Scalar], at index: Int) -> Int {
        var next = index
        if next < characters.count, characters[next] == "^" { next += 1 }
        // A `]` first is a member, not the end.
        if next < characters.count, characters[next] == "]" { next += 1 }
        var depth = 1
        while next < characters.count {
            switch characters[next] {
            case "\\": next += 1
            case "[": depth += 1
            case "]":
                depth -= 1
                if depth == 0 { return next + 1 }
            default: break
            }
            next += 1
        }
        return next
    }
}
