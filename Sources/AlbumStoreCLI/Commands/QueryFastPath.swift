/// `albumstore query` read without ArgumentParser, for the command lines a script or a shell
/// alias types most: the query terms and the options `--db`, `--format`, `--sort`, `--limit`,
/// `--offset`, `--template`, `--count`, `--wide` and `--verbose`, each at most once.
///
/// Why: ArgumentParser finds a command's options by reflecting over its property wrappers, and
/// the Swift runtime answers each of its type lookups by scanning the binary's protocol
/// conformances: about 18 million instructions, several milliseconds, before a query that
/// takes microseconds (see bench-query in the README). A query is what a collector runs all day.
///
/// It fills the same `Query` that ArgumentParser would, and runs it the same way; anything it
/// does not recognize (help, a completion request, an unknown or repeated option, a value that
/// looks like an option, a number that is not one) makes it answer `nil`, and ArgumentParser
/// parses the line as always, with its own messages. Tests check that both read every line the
/// fast path takes alike.
enum QueryFastPath {
    /// The `query` command `arguments` (without the program name) spell, or `nil` for
    /// ArgumentParser to parse.
    static func parse(_ arguments: [String]) -> Query? {
        var parser = Parser()
        var index = arguments.startIndex
        var sawCommand = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if parser.afterSeparator {
                guard sawCommand else { return nil }
                parser.terms.append(argument)
                continue
            }
            if argument.hasPrefix("-") {
                guard argument != "-" else { return nil }
                let (name, attached) = split(argument)
                // Before the command's name only the global options may come (`GlobalOptions`).
                guard sawCommand || name == "--db" || name == "--verbose" else { return nil }
                if Parser.flags.contains(name) {
                    guard attached == nil, parser.set(flag: name) else { return nil }
                } else if Parser.valued.contains(name) {
                    let value: String
                    if let attached {
                        value = attached
                    } else {
                        guard index < arguments.endIndex, !arguments[index].hasPrefix("-") else { return nil }
                        value = arguments[index]
                        index += 1
                    }
                    guard parser.set(name, to: value) else { return nil }
                } else if name == "--" && attached == nil {
                    parser.afterSeparator = true
                } else {
                    return nil
                }
            } else if !sawCommand {
                guard argument == "query" else { return nil }
                sawCommand = true
            } else {
                // `help` is a word ArgumentParser may take as a request for help.
                guard argument != "help" else { return nil }
                parser.terms.append(argument)
            }
        }
        guard sawCommand else { return nil }
        return parser.command()
    }

    /// `--name=value` as its name and value; `--name` with no value.
    private static func split(_ argument: String) -> (name: Substring, value: String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (Substring(argument), nil) }
        return (argument[..<equals], String(argument[argument.index(after: equals)...]))
    }

    private struct Parser {
        static let flags: Set<Substring> = ["--count", "--wide", "--verbose"]
        static let valued: Set<Substring> = ["--db", "--format", "--sort", "--limit", "--offset", "--template"]

        var terms: [String] = []
        var afterSeparator = false
        private var values: [Substring: String] = [:]
        private var setFlags: Set<Substring> = []

        /// Takes a flag; `false` when it came before.
        mutating func set(flag: Substring) -> Bool { setFlags.insert(flag).inserted }

        /// Takes an option's value; `false` when the option came before.
        mutating func set(_ name: Substring, to value: String) -> Bool {
            guard values[name] == nil else { return false }
            values[name] = value
            return true
        }

        /// The command, or `nil` when a value is not what its option takes (ArgumentParser
        /// then says so) or the command does not validate.
        func command() -> Query? {
            // An option group is set whole: an unparsed one cannot be read to change a part.
            var store = StoreOptions()
            store.db = values["--db"]
            store.verbose = setFlags.contains("--verbose")
            var queryTerms = QueryTerms()
            queryTerms.terms = terms
            var sort = SortOption()
            sort.sort = values["--sort"]
            var output = FormatOptions()
            output.wide = setFlags.contains("--wide")
            output.format = .table
            if let format = values["--format"] {
                guard let parsed = OutputFormat(rawValue: format) else { return nil }
                output.format = parsed
            }
            var command = Query()
            command.store = store
            command.terms = queryTerms
            command.sort = sort
            command.output = output
            command.template = values["--template"]
            command.count = setFlags.contains("--count")
            command.offset = 0
            if let offset = values["--offset"] {
                guard let parsed = Int(offset) else { return nil }
                command.offset = parsed
            }
            command.limit = nil
            if let limit = values["--limit"] {
                guard let parsed = Int(limit) else { return nil }
                command.limit = parsed
            }
            do { try command.validate() } catch { return nil }
            return command
        }
    }
}
