import AlbumStore
import ArgumentParser

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create the library file, or bring it up to this version's schema.",
        discussion: "Example: albumstore init --db ~/music/library.sqlite")

    @OptionGroup var store: StoreOptions

    func run() throws {
        let library = try store.openLibrary(.create)
        try StandardOutput.writeLine("\(TerminalEscaping.escaped(library.path)): schema version \(library.schemaVersion)")
    }
}
