import Foundation
import Testing

/// Another program's SQLite database, given by mistake where a library goes, is never changed:
/// byte for byte the same after every command, and no file left beside it.
struct ForeignDatabaseTests {
    let store: AlbumStoreFixture
    let foreign: String

    init() throws {
        store = try AlbumStoreFixture()
        try FileManager.default.createDirectory(atPath: store.cli.path("app"), withIntermediateDirectories: true)
        foreign = store.cli.path("app/app.sqlite")
    }

    /// The commands that open a library, each given the foreign file as its library.
    private var commands: [[String]] {
        let catalog = store.cli.path("albums.csv")
        return [
            ["init"], ["info"], ["list"], ["query", "low"], ["check"], ["add", "--title", "Low", "--artist", "David Bowie"],
            ["rm", "1"], ["undo"], ["import", catalog], ["state"], ["state", "set", "k", "v"], ["state", "snapshot", "s"],
            ["covers", "fetch"], ["covers", "export", "--dir", store.cli.path("covers")], ["covers", "set", "1", "-"],
            ["backup", store.cli.path("copy.sqlite")],
        ].map { ["--db", foreign] + $0 }
    }

    @Test(arguments: ["DELETE", "WAL"])
    func noCommandChangesAnotherProgramsDatabase(journalMode: String) throws {
        try Data("title,artist\nLow,David Bowie\n".utf8).write(to: URL(fileURLWithPath: store.cli.path("albums.csv")))
        try SQLiteShell.run("""
            PRAGMA journal_mode = \(journalMode);
            CREATE TABLE albums(id INTEGER PRIMARY KEY, title TEXT);
            INSERT INTO albums(title) VALUES ('Their album');
            """, on: foreign)
        let before = try Data(contentsOf: URL(fileURLWithPath: foreign))
        let folder = store.cli.path("app")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)

        for arguments in commands {
            let result = try store.cli.run(arguments, input: CoversCommandTests.gif)
            let command = arguments.dropFirst(2).joined(separator: " ")
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: foreign)) == before, "\(command) changed the file")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == files, "\(command) left files beside it")
        }
        // And as the destination of a backup, forced or not.
        try store.add("Ours")
        for force in [[], ["--force"]] {
            let result = try store.cli.run(["backup", foreign] + force)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: foreign)) == before, "backup \(force) changed the file")
        }
    }
}
