import Foundation
import Testing

/// docs/cli.md held to the tool, as sqlite-utils' `test_docs.py` holds its docs: every command
/// and every option of `albumstore --experimental-dump-help` is in the manual, and every
/// `albumstore COMMAND` the manual shows is a command.
struct ManualTests {
    let cli: CLI
    let manual: String

    init() throws {
        cli = try CLI()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        manual = try String(contentsOf: root.appendingPathComponent("docs/cli.md"), encoding: .utf8)
    }

    /// One command of the tool, as the dump describes it.
    struct Command: Decodable {
        struct Argument: Decodable {
            struct Name: Decodable {
                var kind: String
                var name: String
            }
            var names: [Name]?
            var shouldDisplay: Bool
        }
        var commandName: String
        var subcommands: [Command]?
        var arguments: [Argument]?
    }

    struct Dump: Decodable { var command: Command }

    /// Each command's path below the tool ("covers get") with its long options.
    func commands() throws -> [(path: String, options: [String])] {
        let result = try cli.run(["--experimental-dump-help"])
        #expect(result.status == 0, "\(result.stderr)")
        let tool = try JSONDecoder().decode(Dump.self, from: Data(result.stdout.utf8)).command
        var found: [(String, [String])] = []
        func visit(_ command: Command, path: [String]) {
            let shown: [Command.Argument] = (command.arguments ?? []).filter(\.shouldDisplay)
            let names: [Command.Argument.Name] = shown.flatMap { $0.names ?? [] }
            let options: [String] = names.filter { $0.kind == "long" }.map(\.name)
            found.append((path.joined(separator: " "), options))
            for sub in command.subcommands ?? [] where sub.commandName != "help" { visit(sub, path: path + [sub.commandName]) }
        }
        visit(tool, path: [])
        return found
    }

    @Test func everyCommandAndOptionIsInTheManual() throws {
        let commands = try commands()
        #expect(commands.count > 30, "the dump lists the subcommands")
        var missing: [String] = []
        for (path, options) in commands {
            if !path.isEmpty, !manual.contains("albumstore \(path)"), !manual.contains("`\(path)") {
                missing.append("the command `\(path)`")
            }
            for option in options where option != "help" && !manual.contains("--\(option)") {
                missing.append("`--\(option)` of `albumstore \(path)`")
            }
        }
        #expect(missing.isEmpty, "docs/cli.md does not mention:\n\(missing.joined(separator: "\n"))")
    }

    /// (An example of a mistyped command shows its error on the next line, and is not one.)
    @Test func everyCommandTheManualShowsExists() throws {
        let names = Set(try commands().map(\.path).filter { !$0.isEmpty }.map { String($0.split(separator: " ")[0]) } + ["help"])
        let lines = manual.split(separator: "\n", omittingEmptySubsequences: false)
        var unknown: Set<String> = []
        for (number, line) in lines.enumerated() {
            for match in line.matches(of: /(?:^|[`$] ?)albumstore ([a-z][a-z-]*)\b/) {
                let word = String(match.output.1)
                let isShownAsAMistake = number + 1 < lines.count && lines[number + 1].hasPrefix("Error: No command '\(word)'")
                if !names.contains(word), !isShownAsAMistake { unknown.insert(word) }
            }
        }
        #expect(names.contains("import") && names.contains("covers"))
        #expect(unknown.isEmpty, "docs/cli.md shows commands the tool does not have: \(unknown.sorted())")
    }
}
