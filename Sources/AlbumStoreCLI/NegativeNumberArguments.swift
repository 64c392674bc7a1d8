/// A lone negative number where a command expects an argument (`albumstore show -1`,
/// `albumstore state set volume -5`), read as that argument.
///
/// ArgumentParser takes every word that starts with `-` for an option. For options it offers a
/// way out, `.unconditional`, which every option that takes a number uses (`--year -5`); for
/// arguments it has none. So when it refuses a line holding such a number, `main` asks it again
/// with the number after `--`, where every word is an argument. ArgumentParser stays the one
/// reader of the line: this only moves words, and a line it accepted as typed is never changed.
enum NegativeNumberArguments {
    /// `arguments` read with each lone negative number that follows no option as an argument, by
    /// a `--` before it; `nil` when there is none, or when its place among the arguments would
    /// be lost.
    ///
    /// When only arguments follow the first such number (`covers set -1 cover.png`), `--` goes
    /// before it. Otherwise the numbers move after `--` (the one given, or a new one at the end),
    /// which keeps the order only when no argument follows them: so only when each word after
    /// the first number is an option or may be an option's value (`show -1 --format json`), not
    /// in `state set -5 text --verbose`.
    ///
    /// With `afterFlags`, a number right after an option is moved too: the word before it is then
    /// taken for a flag (`show --wide -1`), since every option that takes a number reads a
    /// negative one itself. That is the second guess, for when the first reading fails as well.
    static func movedAfterTerminator(_ arguments: [String], afterFlags: Bool = false) -> [String]? {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        func isValue(_ index: Int) -> Bool { index > 0 && takesNextWord(arguments[index - 1]) }
        func movable(_ index: Int) -> Bool { isNegativeNumber(arguments[index]) && (afterFlags || !isValue(index)) }
        let first = arguments[..<end].indices.first(where: movable)
        guard let first else { return nil }
        if end == arguments.endIndex && !arguments[first...].contains(where: isOption) {
            return Array(arguments[..<first]) + ["--"] + arguments[first...]
        }
        var kept: [String] = []
        var moved: [String] = []
        for (index, word) in arguments[..<end].enumerated() {
            if movable(index) {
                moved.append(word)
            } else if index > first && !isOption(word) && !isValue(index) {
                return nil
            } else {
                kept.append(word)
            }
        }
        return kept + ["--"] + moved + arguments[end...].dropFirst()
    }

    /// A word ArgumentParser reads as an option: `--format`, `--format=json`, `-o`; not `-`
    /// (stdin) or a negative number.
    private static func isOption(_ word: String) -> Bool {
        word.hasPrefix("-") && word.count > 1 && !isNegativeNumber(word)
    }

    /// An option that may take the next word as its value: `--format`, not `--format=json`.
    private static func takesNextWord(_ word: String) -> Bool {
        isOption(word) && !word.contains("=")
    }

    /// `-1`, `-42`, `-0.5`: a minus sign and a number, which no option of albumstore is named.
    static func isNegativeNumber(_ word: String) -> Bool {
        guard word.hasPrefix("-") else { return false }
        let digits = word.dropFirst().split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        return digits.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
