import Foundation
import Testing

/// A command never opens, replaces or writes the library's own files outside SQLite: closing
/// such a descriptor would drop the process's locks on the library (see `OpenLibraries`), and
/// a file renamed over it would replace the library.
struct OwnFileRefusalTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test(arguments: [
        (["import", "{db}"], "open library's database file"),
        (["export", "--output", "{db}"], "open library's database file"),
        (["export", "--output", "{db}-wal"], "beside the open library"),
        (["covers", "set", "1", "{db}"], "open library's database file"),
        (["backup", "{db}-wal", "--force"], "beside the open library"),
        (["backup", "./library.sqlite-wal", "--force"], "beside the open library"),
    ])
    func aCommandNamingTheLibrarysOwnFileIsRefusedAndChangesNothing(arguments: [String], reason: String) throws {
        try store.add("Low", by: "David Bowie")
        let before = try store.snapshot()

        let result = try store.run(arguments.map { $0.replacingOccurrences(of: "{db}", with: store.db) })

        #expect(result.status == 1)
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try store.snapshot() == before)
        #expect(try SQLiteShell.run("PRAGMA integrity_check", on: store.db) == "ok\n")
    }
}
