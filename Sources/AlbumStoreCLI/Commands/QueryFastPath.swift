/// `albumstore query` read without ArgumentParser, for the command lines a script or a shell
/// alias types most: the query terms and the options `--db`, `--format`, `--sort`, `--limit`,
/// `--offset`, `--template`, `--count`, `--wide` and `--verbose`, each at most once.
///
/// Why: ArgumentParser finds a command's options by reflecting over its property wrappers, and
/// the Swift runtime answers each of its type lookups by scanning the binary's protocol
/// conformances: about 18 million instructions, several milliseconds, before a query that
/// takes microseconds (see bench-query in the README). A query is what a collector runs all day.
///
/// It makes the same `QueryRequest` that ArgumentParser's `Query` would, and runs it; anything it
/// does not recognize (help, a completion request, an unknown or repeated option, a value that
/// looks like an option, a number that is not one) makes it answer `nil`, and ArgumentParser
/// parses the line as always, with its own messages. Tests check that both read every line the
/// fast path takes alike.
enum QueryFastPath {
    /// The `query` command `arguments` (without the program name) spell, or `nil` for
    /// ArgumentParser to parse.
    static func parse(_ arguments: [String]) -> QueryRequest? {
        var parser = Parser()
        var index = arguments.startIndex
        var sawCommand = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if parser.afterSeparator {
                guard sawCommand else { return nil }
                parser.request.terms.append(argument)
                continue
            }
            if argument.hasPrefix("-") {
                guard argument != "-" else { return nil }
                let (name, attached) = split(argument)
                // Before the command's name only the global options may come (`GlobalOptions`).
                guard sawCommand || name == "--db" || name == "--verbose" else { return nil }
                if Parser.flags.contains(where: { $0 == name }) {
                    guard attached == nil, parser.set(flag: name) else { return nil }
                } else if Parser.valued.contains(where: { $0 == name }) {
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
                parser.request.terms.append(argument)
            }
        }
        guard sawCommand, (try? parser.request.validate()) != nil else { return nil }
        return parser.request
    }

    /// `--name=value` as its name and value; `--name` with no value.
    private static func split(_ argument: String) -> (name: Substring, value: String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (Substring(argument), nil) }
        return (argument[..<equals], String(argument[argument.index(after: equals)...]))
    }

    /// The options read so far. Names are matched in arrays, not sets: each new `Set` or
    /// `Dictionary` key type costs the runtime a scan of the binary's conformances.
    private struct Parser {
        static let flags = ["--count", "--wide", "--verbose"]
        static let valued = ["--db", "--format", "--sort", "--limit", "--offset", "--template"]

        var request = QueryRequest()
        var afterSeparator = false
        /// The options met, to refuse one given twice.
        private var seen: [Substring] = []

        /// Takes a flag; `false` when it came before.
        mutating func set(flag name: Substring) -> Bool {
            guard !seen.contains(name) else { return false }
            seen.append(name)
            switch name {
            case "--count": request.count = true
            case "--wide": request.wide = true
            default: request.verbose = true
            }
            return true
        }

        /// Takes an option's value; `false` when the option came before or the value is not
        /// what it takes (ArgumentParser then says so).
        mutating func set(_ name: Substring, to value: String) -> Bool {
            guard !seen.contains(name) else { return false }
            seen.append(name)
            switch name {
            case "--db": request.db = value
            case "--sort": request.sort = value
            case "--template": request.template = value
            case "--format":
                guard let format = OutputFormat(rawValue: value) else { return false }
                request.format = format
            case "--limit":
                guard let limit = Int(value) else { return false }
                request.limit = limit
            default:
                guard let offset = Int(value) else { return false }
                request.offset = offset
            }
            return true
        }
    }
}
