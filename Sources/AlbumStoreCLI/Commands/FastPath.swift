/// `albumstore query`, `list` and `show` read without ArgumentParser, for the command lines
/// scripts and people type most: `query` with its terms and `--db`, `--format`, `--sort`,
/// `--limit`, `--offset`, `--template`, `--count`, `--wide` and `--verbose`; `list` with `--db`,
/// `--format`, `--limit`, `--offset`, `--wide` and `--verbose`; `show` with an id and `--db`,
/// `--format`, `--wide` and `--verbose`; each option at most once.
///
/// Why: ArgumentParser finds a command's options by reflecting over its property wrappers, and
/// the Swift runtime answers each of its type lookups by scanning the binary's protocol
/// conformances: about 14 million instructions, several milliseconds, before a query or a page
/// of the list that takes microseconds (see bench-query in docs/benchmarks.md).
///
/// It makes the same `QueryRequest`, `ListRequest` or `ShowRequest` that ArgumentParser's
/// `Query`, `List` or `Show` would, and runs it; anything it does not recognize (help, a completion request, an unknown
/// or repeated option, a value that looks like an option, a number that is not one) makes it
/// answer `nil`, and ArgumentParser parses the line as always, with its own messages. Tests check
/// that both read every line the fast path takes alike.
enum FastPath {
    /// A command line the fast path read.
    enum Request: Equatable {
        case query(QueryRequest)
        case list(ListRequest)
        case show(ShowRequest)

        var verbose: Bool {
            switch self {
            case .query(let request): request.verbose
            case .list(let request): request.verbose
            case .show(let request): request.verbose
            }
        }

        func run() throws {
            switch self {
            case .query(let request): try request.run()
            case .list(let request): try request.run()
            case .show(let request): try request.run()
            }
        }
    }

    /// The request `arguments` (without the program name) spell, or `nil` for ArgumentParser to parse.
    static func parse(_ arguments: [String]) -> Request? {
        guard let line = Line(arguments) else { return nil }
        switch line.command.name {
        case "query": return query(line).map(Request.query)
        case "list": return list(line).map(Request.list)
        default: return show(line).map(Request.show)
        }
    }

    private static func query(_ line: Line) -> QueryRequest? {
        var request = QueryRequest(terms: line.terms, count: line.has("--count"))
        request.sort = line.value("--sort")
        request.template = line.value("--template")
        guard line.setCommonOptions(db: &request.db, verbose: &request.verbose, format: &request.format, wide: &request.wide),
              line.setPaging(offset: &request.offset, limit: &request.limit), (try? request.validate()) != nil
        else { return nil }
        return request
    }

    private static func list(_ line: Line) -> ListRequest? {
        var request = ListRequest()
        guard line.terms.isEmpty, !line.sawSeparator,
              line.setCommonOptions(db: &request.db, verbose: &request.verbose, format: &request.format, wide: &request.wide),
              line.setPaging(offset: &request.offset, limit: &request.limit), (try? request.validate()) != nil
        else { return nil }
        return request
    }

    private static func show(_ line: Line) -> ShowRequest? {
        guard line.terms.count == 1, !line.sawSeparator, let id = Int64(line.terms[0]) else { return nil }
        var request = ShowRequest(id: id)
        guard line.setCommonOptions(db: &request.db, verbose: &request.verbose, format: &request.format, wide: &request.wide)
        else { return nil }
        return request
    }

    /// A command the fast path reads, and the options it takes. Names are matched in arrays, not
    /// sets: each new `Set` or `Dictionary` key type costs the runtime a scan of the binary's
    /// conformances.
    private struct Command {
        let name: String
        let flags: [Substring]
        let valued: [Substring]

        static let all = [
            Command(name: "query", flags: ["--count", "--wide", "--verbose"],
                    valued: ["--db", "--format", "--sort", "--limit", "--offset", "--template"]),
            Command(name: "list", flags: ["--wide", "--verbose"], valued: ["--db", "--format", "--limit", "--offset"]),
            Command(name: "show", flags: ["--wide", "--verbose"], valued: ["--db", "--format"]),
        ]
        /// What may come before the command's name (`GlobalOptions`).
        static let globalFlags: [Substring] = ["--verbose"]
        static let globalValued: [Substring] = ["--db"]
    }

    /// A command line taken apart: its command, the options given (each once) and the terms.
    private struct Line {
        let command: Command
        private(set) var flags: [Substring] = []
        private(set) var values: [(name: Substring, value: String)] = []
        private(set) var terms: [String] = []
        private(set) var sawSeparator = false

        /// `nil` for a line with no command the fast path reads, an option the command does not
        /// take, an option given twice, or an option's value that looks like an option.
        init?(_ arguments: [String]) {
            var command: Command?
            var flags: [Substring] = [], values: [(name: Substring, value: String)] = [], terms: [String] = []
            var sawSeparator = false
            var index = arguments.startIndex
            while index < arguments.endIndex {
                let argument = arguments[index]
                index += 1
                if sawSeparator {
                    guard command != nil else { return nil }
                    terms.append(argument)
                    continue
                }
                if argument.hasPrefix("-") {
                    guard argument != "-" else { return nil }
                    let (name, attached) = Self.split(argument)
                    let takesFlag = command?.flags ?? Command.globalFlags
                    let takesValue = command?.valued ?? Command.globalValued
                    guard !flags.contains(name), !values.contains(where: { $0.name == name }) else { return nil }
                    if takesFlag.contains(name) {
                        guard attached == nil else { return nil }
                        flags.append(name)
                    } else if takesValue.contains(name) {
                        let value: String
                        if let attached {
                            value = attached
                        } else {
                            guard index < arguments.endIndex, !arguments[index].hasPrefix("-") else { return nil }
                            value = arguments[index]
                            index += 1
                        }
                        values.append((name, value))
                    } else if name == "--" && attached == nil && command != nil {
                        sawSeparator = true
                    } else {
                        return nil
                    }
                } else if command == nil {
                    guard let named = Command.all.first(where: { $0.name == argument }) else { return nil }
                    command = named
                } else {
                    // `help` is a word ArgumentParser may take as a request for help.
                    guard argument != "help" else { return nil }
                    terms.append(argument)
                }
            }
            guard let command else { return nil }
            self.command = command
            self.flags = flags
            self.values = values
            self.terms = terms
            self.sawSeparator = sawSeparator
        }

        func has(_ flag: Substring) -> Bool { flags.contains(flag) }

        func value(_ name: Substring) -> String? { values.first { $0.name == name }?.value }

        /// Sets the options every command here takes; `false` when a value is not what its
        /// option takes (ArgumentParser then says so).
        func setCommonOptions(db: inout String?, verbose: inout Bool, format: inout OutputFormat, wide: inout Bool) -> Bool {
            db = value("--db")
            verbose = has("--verbose")
            wide = has("--wide")
            if let text = value("--format") {
                guard let named = OutputFormat(rawValue: text) else { return false }
                format = named
            }
            return true
        }

        /// Sets `--offset` and `--limit`; `false` when one is not a number.
        func setPaging(offset: inout Int, limit: inout Int?) -> Bool {
            if let text = value("--offset") {
                guard let number = Int(text) else { return false }
                offset = number
            }
            if let text = value("--limit") {
                guard let number = Int(text) else { return false }
                limit = number
            }
            return true
        }

        /// `--name=value` as its name and value; `--name` with no value.
        private static func split(_ argument: String) -> (name: Substring, value: String?) {
            guard let equals = argument.firstIndex(of: "=") else { return (Substring(argument), nil) }
            return (argument[..<equals], String(argument[argument.index(after: equals)...]))
        }
    }
}
