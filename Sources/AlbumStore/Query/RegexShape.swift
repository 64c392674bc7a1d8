/// What in a POSIX extended regular expression could make a single match slow, or its compiled
/// form huge, refused before the pattern is compiled: a match cannot be stopped half-way, and the
/// query's time limit (`RegexBudget`) is checked between values only. An escaped letter other
/// than `\w \W \s \S \b \B` is refused too: the C library would quietly take `\d` as `d`.
///
/// - A back-reference (`\1`) makes matching exponential in any engine.
/// - A counted repetition is compiled as that many copies of what it repeats, and nested counts
///   multiply (`((a{255}){255}){255}` is sixteen million copies); matching also slows with the
///   copies. All of them together may expand to at most `maximumCopies`.
/// - The pattern is at most `maximumLength` bytes, as long as the longest field value.
enum RegexShape {
    static let maximumLength = 1000
    static let maximumCopies = 255

    /// Why `pattern` is refused; `nil` when its shape is fine (it may still not compile).
    static func problem(in pattern: String) -> String? {
        let length = pattern.utf8.count
        guard length <= maximumLength else { return "it is \(length) bytes long; at most \(maximumLength) can run" }
        guard !pattern.utf8.contains(0) else { return "it holds a NUL character" }
        let characters = Array(pattern.unicodeScalars)
        /// Per open group: how many atoms its content expands to, and the last atom's (or group's).
        var groups: [(size: Int, last: Int)] = [(0, 0)]
        var copies = 0
        var index = 0
        /// Whether the last thing read was a repetition operator (`*`, `+`, `?`, a bound).
        var repeated = false
        while index < characters.count {
            let character = characters[index]
            index += 1
            var atom = true
            let repetition = "*+?".unicodeScalars.contains(character)
                || (character == "{" && bound(characters, at: index) != nil)
            // glibc compiles stacked repetitions (a++++) into an automaton that doubles with
            // each one: twenty take a second and ever more memory, before any match can be stopped.
            if repetition && repeated {
                return "repetition operators one after another (like a++ or a*?) take exponential time to compile; write one"
            }
            repeated = repetition
            switch character {
            case "\\":
                if index < characters.count, ("1"..."9").contains(characters[index]) {
                    return "a back-reference (\\\(characters[index])) can take exponential time; match the text itself"
                }
                if index < characters.count, characters[index].isASCII, characters[index].properties.isAlphabetic,
                   !"wWsSbB".unicodeScalars.contains(characters[index]) {
                    return "\\\(characters[index]) is no escape of POSIX extended regular expressions (for \\d write [0-9])"
                }
                index += 1
            case "[":
                index = afterBracket(characters, at: index)
            case "(":
                groups.append((0, 0))
                atom = false
            case ")" where groups.count > 1:
                let group = groups.removeLast()
                groups[groups.count - 1].size += group.size
                groups[groups.count - 1].last = group.size
                atom = false
            case "{":
                guard let (count, next) = bound(characters, at: index) else { break }
                index = next
                atom = false
                let last = groups[groups.count - 1].last
                guard count <= maximumCopies, copies + last * count <= maximumCopies else {
                    return "counted repetitions make more than \(maximumCopies) copies of what they repeat, "
                        + "which can take too long; use * or +"
                }
                copies += last * count
                groups[groups.count - 1].size += last * (count - 1)
                groups[groups.count - 1].last = last * count
            case "*", "+", "?", "^", "$":
                atom = false
            case "|":
                groups[groups.count - 1].last = 0
                atom = false
            default:
                break
            }
            if atom {
                groups[groups.count - 1].size += 1
                groups[groups.count - 1].last = 1
            }
        }
        return nil
    }

    /// The most a bound (`{n}`, `{n,}`, `{n,m}`, `{,m}`) whose `{` is just before `index` repeats,
    /// at least 1, and where the pattern goes on; `nil` when the brace starts no bound.
    private static func bound(_ characters: [Unicode.Scalar], at index: Int) -> (count: Int, next: Int)? {
        guard let end = characters[index...].firstIndex(of: "}") else { return nil }
        let parts = String(String.UnicodeScalarView(characters[index..<end]))
            .split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ $0.allSatisfy(\.isASCII) && ($0.isEmpty || Int($0) != nil) }),
              parts.contains(where: { !$0.isEmpty })
        else { return nil }
        let most = parts.compactMap { Int($0) }.max() ?? 1
        return (max(1, most), end + 1)
    }

    /// Where the pattern goes on after the bracket expression whose `[` is just before `index`.
    /// Inside, a backslash is itself, a `]` first is a member, and `[:alpha:]`, `[=e=]` and
    /// `[.-.]` end with their own `:]`, `=]` and `.]`.
    private static func afterBracket(_ characters: [Unicode.Scalar], at index: Int) -> Int {
        var next = index
        if next < characters.count, characters[next] == "^" { next += 1 }
        if next < characters.count, characters[next] == "]" { next += 1 }
        while next < characters.count {
            let character = characters[next]
            if character == "]" { return next + 1 }
            if character == "[", next + 1 < characters.count, [":", "=", "."].contains(characters[next + 1]) {
                let delimiter = characters[next + 1]
                next += 2
                while next + 1 < characters.count, !(characters[next] == delimiter && characters[next + 1] == "]") { next += 1 }
                next += 2
                continue
            }
            next += 1
        }
        return next
    }
}
