/// Options every command takes, which users also put before the command's name, as with git:
/// `albumstore --db lib.sqlite list` means `albumstore list --db lib.sqlite`.
///
/// swift-argument-parser reads a subcommand's options only after its name, so the arguments
/// are reordered before parsing: the global options found before the first word that is not one
/// of them move to the end (before a `--`).
enum GlobalOptions {
    /// Options that take a value, and flags.
    static let valued: Set<String> = ["--db"]
    static let flags: Set<String> = ["--verbose"]

    /// `arguments` (without the program name) with leading global options moved after the rest,
    /// but before a `--`.
    static func reordered(_ arguments: [String]) -> [String] {
        var globals: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if flags.contains(argument) || (valued.contains(name) && argument.contains("=")) {
                globals.append(argument)
                index += 1
            } else if valued.contains(argument), index + 1 < arguments.endIndex {
                globals += [argument, arguments[index + 1]]
                index += 2
            } else {
                break
            }
        }
        guard !globals.isEmpty, index < arguments.endIndex else { return arguments }
        // Before a `--`, after which every word is an argument (`query -- -genre:rock`).
        var rest = Array(arguments[index...])
        rest.insert(contentsOf: globals, at: rest.firstIndex(of: "--") ?? rest.endIndex)
        return rest
    }
}
