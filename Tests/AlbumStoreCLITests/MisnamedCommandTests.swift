import Foundation
import Testing
@testable import AlbumStoreCLI

/// A word that names no command is a usage error (exit 2) that names it and the command it most
/// likely meant: a synonym from other tools, or a slip of the keyboard.
struct MisnamedCommandTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test(arguments: [
        (["search", "miles"], "No command 'search'. Did you mean 'query'?"),
        (["find", "artist:miles"], "No command 'find'. Did you mean 'query'?"),
        (["ls"], "No command 'ls'. Did you mean 'list'?"),
        (["improt", "catalog.csv"], "No command 'improt'. Did you mean 'import'?"),
        (["--db", "other.sqlite", "--verbose", "lsit"], "No command 'lsit'. Did you mean 'list'?"),
        (["state", "snapshts"], "No command 'state snapshts'. Did you mean 'state snapshots'?"),
        (["covers", "fech"], "No command 'covers fech'. Did you mean 'covers fetch'?"),
        (["frobnicate"], "No command 'frobnicate'. 'albumstore --help' lists the commands."),
    ])
    func aWordThatNamesNoCommandSuggestsOne(arguments: [String], message: String) throws {
        let result = try store.run(arguments)

        expectUsageError(result, saying: message)
        #expect(!FileManager.default.fileExists(atPath: store.db))
    }

    @Test(arguments: [
        (["help", "nosuch"], "No command 'nosuch'. 'albumstore --help' lists the commands."),
        (["help", "improt"], "No command 'improt'. Did you mean 'import'?"),
        (["help", "state", "restor"], "No command 'state restor'. Did you mean 'state restore'?"),
    ])
    func helpForACommandThatDoesNotExistIsAUsageError(arguments: [String], message: String) throws {
        expectUsageError(try store.run(arguments), saying: message)
    }

    @Test func helpForACommandStillPrintsItsHelp() throws {
        let result = try store.run("help", "state", "restore")

        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(result.stdout.contains("USAGE: albumstore state restore"))
    }

    @Test func editDistanceCountsASwapOfNeighboursAsOneEdit() {
        #expect(EditDistance.between("improt", "import") == 1)
        #expect(EditDistance.between("lsit", "list") == 1)
        #expect(EditDistance.between("ls", "list") == 2)
        #expect(EditDistance.between("", "rm") == 2)
        #expect(EditDistance.between("query", "query") == 0)
    }
}
