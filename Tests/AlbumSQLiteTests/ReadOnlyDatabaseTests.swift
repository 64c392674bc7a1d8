import Foundation
import AlbumSQLite
import Testing
import TestSupport

/// A `Database` for reading only opens its writer only when something asks for it.
struct ReadOnlyDatabaseTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try directory.open().execute("PRAGMA journal_mode = WAL; CREATE TABLE t(x); INSERT INTO t VALUES (1), (2)")
    }

    #if os(Linux)
    /// How many of this process's file descriptors are open on `path` (the connections on it).
    private func descriptors(on path: String) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count { name in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)) == path
        }
    }

    @Test(arguments: [ConnectionOptions.Mode.readOnly, .readWrite])
    func readsOpenOneConnectionAndTheWriterOpensWhenAskedFor(mode: ConnectionOptions.Mode) throws {
        var options = ConnectionOptions.default
        options.journalMode = nil
        options.mode = mode
        options.queryOnly = mode == .readWrite
        let path = directory.path()
        let database = try Database(path: path, options: options)
        #expect(try descriptors(on: path) == 0)

        #expect(try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int.self) } == 2)
        #expect(try descriptors(on: path) == 1)

        #expect(try database.withWriter { try $0.scalar("SELECT max(x) FROM t", as: Int.self) } == 2)
        #expect(try descriptors(on: path) == 2)
    }
    #endif

    @Test func aWriterThatCannotOpenFailsTheCallThatNeedsIt() throws {
        var options = ConnectionOptions.default
        options.mode = .readOnly
        let database = try Database(path: directory.path("missing.sqlite"), options: options)
        #expect(throws: SQLiteError.self) { try database.withWriter { _ in } }
        #expect(throws: SQLiteError.self) { try database.read { _ in } }
    }
}
