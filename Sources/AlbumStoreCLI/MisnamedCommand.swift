import ArgumentParser

/// A word where a command's name belongs that names no command (`albumstore search miles`,
/// `albumstore help nosuch`, `albumstore state snapshts`), with the command it most likely meant.
///
/// ArgumentParser reports the first as "2 unexpected arguments" and answers the second with the
/// general help and exit 0; this names the word and suggests a command, for a usage error (exit 2).
struct MisnamedCommand: CustomStringConvertible {
    /// The names of the commands before the word (`["state"]`), and the word.
    let path: [String]
    let word: String
    /// The command meant, spelt as `path` is (`snapshots`); `nil` when none is near.
    let suggestion: String?

    /// The misnamed command in `arguments`, `nil` when every word in a command's place names one.
    ///
    /// Only the words where a name is expected are read: the first word after the global options,
    /// the word after the name of a command that has subcommands (none of which takes arguments
    /// of its own), and the words after `help`. Option words end the search: their values could
    /// be anything.
    init?(_ arguments: [String]) {
        var words = arguments[...]
        // The global options before the command's name (`--db PATH`, `--verbose`).
        while let first = words.first, first.hasPrefix("-") {
            guard first == "--db" || first.hasPrefix("--db=") || first == "--verbose" else { return nil }
            words = words.dropFirst(first == "--db" ? 2 : 1)
        }
        if words.first == "help" { words = words.dropFirst() }
        var command: any ParsableCommand.Type = AlbumStoreCommand.self
        var path: [String] = []
        while let word = words.first, !word.hasPrefix("-"), !command.configuration.subcommands.isEmpty {
            let names = command.configuration.subcommands.compactMap { $0.configuration.commandName }
            guard let next = command.configuration.subcommands.first(where: { $0.configuration.commandName == word }) else {
                self.path = path
                self.word = word
                suggestion = Self.suggestion(for: word, among: names, atTop: path.isEmpty)
                return
            }
            command = next
            path.append(word)
            words = words.dropFirst()
        }
        return nil
    }

    var description: String {
        let named = (path + [word]).joined(separator: " ")
        guard let suggestion else {
            return "No command '\(named)'. '\((["albumstore"] + path).joined(separator: " ")) --help' lists the commands."
        }
        return "No command '\(named)'. Did you mean '\((path + [suggestion]).joined(separator: " "))'?"
    }

    /// Words people bring from other tools, and the top-level command that does that here.
    static let synonyms: [String: String] = [
        "search": "query", "find": "query", "filter": "query", "grep": "query", "select": "query",
        "ls": "list", "all": "list", "view": "show", "get": "show", "cat": "show",
        "new": "add", "create": "add", "insert": "add", "update": "edit", "set": "edit", "change": "edit",
        "delete": "rm", "remove": "rm", "del": "rm", "move": "mv", "status": "info", "verify": "check",
        "load": "import", "dump": "export", "log": "history", "cover": "covers", "session": "state",
    ]

    /// The name among `names` that `word` most likely meant: a synonym (top level only), else the
    /// nearest name by edit distance, when near enough to be a slip (at most 2 edits, fewer than
    /// half the word's letters).
    static func suggestion(for word: String, among names: [String], atTop: Bool) -> String? {
        let lowercased = word.lowercased()
        if atTop, let synonym = synonyms[lowercased], names.contains(synonym) { return synonym }
        let nearest = names.map { (name: $0, distance: EditDistance.between(lowercased, $0)) }.min { $0.distance < $1.distance }
        guard let nearest, nearest.distance <= 2, nearest.distance * 2 < lowercased.count else { return nil }
        return nearest.name
    }
}
