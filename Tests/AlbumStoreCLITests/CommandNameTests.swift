import ArgumentParser
import Testing
@testable import AlbumStoreCLI

/// Every command names itself: without a `commandName` ArgumentParser derives the name with
/// `String(describing:)` for every command at every start, and those runtime casts were a fifth
/// of `albumstore --version`'s time in the statically linked binary.
struct CommandNameTests {
    @Test func everyCommandHasAnExplicitName() {
        var missing: [String] = []
        func visit(_ command: any ParsableCommand.Type) {
            if command.configuration.commandName == nil { missing.append("\(command)") }
            for subcommand in command.configuration.subcommands { visit(subcommand) }
        }
        visit(AlbumStoreCommand.self)
        #expect(missing.isEmpty, "commands without a commandName: \(missing)")
    }
}
