import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

struct MigrationTests {
    let directory: TemporaryDirectory
    var url: URL { directory.file("library.sqlite") }

    init() throws { directory = try TemporaryDirectory() }

    static let first = Migration(version: 1, name: "things", sql: "CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT);")
    static let second = Migration(version: 2, name: "more", sql: "ALTER TABLE things ADD COLUMN colour TEXT;")

    @Test func freshDatabaseGetsEveryEmbeddedMigrationAndTheAlbumStoreMark() throws {
        let library = try Library.open(at: url)
        #expect(library.schemaVersion == Migration.embedded.last!.version)

        let connection = try Connection(path: url.path)
        #expect(try connection.scalar("PRAGMA application_id", as: Int32.self) == Migrator.applicationID)
        #expect(try connection.scalar("PRAGMA user_version", as: Int.self) == library.schemaVersion)
        #expect(try connection.scalar("PRAGMA journal_mode", as: String.self) == "wal")
        let recorded = try connection.query("SELECT version, checksum FROM schema_migrations ORDER BY version") {
            try "\($0[0, as: Int.self]):\($0[1, as: String.self])"
        }
        #expect(recorded == Migration.embedded.map { "\($0.version):\($0.checksum)" })
    }

    @Test func reopeningAnUpToDateDatabaseChangesNothing() throws {
        _ = try Library.open(at: url)
        let before = try connectionCount("schema_migrations")
        let library = try Library.open(at: url)
        #expect(library.schemaVersion == Migration.embedded.last!.version)
        #expect(try connectionCount("schema_migrations") == before)
    }

    @Test func olderDatabaseIsUpgradedAndKeepsItsData() throws {
        _ = try Library.open(at: url, migrator: Migrator(migrations: [Self.first]))
        try Connection(path: url.path).run("INSERT INTO things (name) VALUES ('kept')")

        let library = try Library.open(at: url, migrator: Migrator(migrations: [Self.first, Self.second]))

        #expect(library.schemaVersion == 2)
        let connection = try Connection(path: url.path)
        #expect(try connection.scalar("SELECT name FROM things", as: String.self) == "kept")
        #expect(try connection.scalar("SELECT count(*) FROM pragma_table_info('things') WHERE name = 'colour'", as: Int.self) == 1)
    }

    @Test func newerDatabaseIsRefusedAndLeftUntouched() throws {
        _ = try Library.open(at: url, migrator: Migrator(migrations: [Self.first, Self.second]))
        let before = try Data(contentsOf: url)

        #expect(throws: SchemaError.newerThanKnown(path: url.path, version: 2, known: 1)) {
            try Library.open(at: url, migrator: Migrator(migrations: [Self.first]))
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func editedMigrationIsRefused() throws {
        _ = try Library.open(at: url, migrator: Migrator(migrations: [Self.first]))
        let edited = Migration(version: 1, name: "things", sql: Self.first.sql + " -- edited")

        #expect(throws: SchemaError.migrationChanged(
            path: url.path, migration: "0001_things", applied: Self.first.checksum, current: edited.checksum)) {
            try Library.open(at: url, migrator: Migrator(migrations: [edited]))
        }
    }

    @Test func foreignSQLiteFileIsRefusedAndLeftByteForByteUnchanged() throws {
        var options = ConnectionOptions()
        options.journalMode = .delete
        try Connection(path: url.path, options: options).execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');")
        let before = try Data(contentsOf: url)

        #expect(throws: SchemaError.self) { try Library.open(at: url) }

        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test func databaseOfAnotherApplicationIsRefused() throws {
        var options = ConnectionOptions()
        options.journalMode = .delete
        try Connection(path: url.path, options: options).execute("PRAGMA application_id = 42")
        let before = try Data(contentsOf: url)

        #expect(throws: SchemaError.notAnAlbumStore(
            path: url.path, reason: "application_id is 42, not AlbumStore's \(Migrator.applicationID)")) {
            try Library.open(at: url)
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func fileThatIsNotSQLiteIsRefusedAndLeftUnchanged() throws {
        let text = Data(String(repeating: "not a database\n", count: 100).utf8)
        try text.write(to: url)

        #expect(throws: SchemaError.notAnAlbumStore(path: url.path, reason: "the file is not a SQLite database")) {
            try Library.open(at: url)
        }
        #expect(try Data(contentsOf: url) == text)
    }

    @Test func failingMigrationLeavesThePreviousVersion() throws {
        _ = try Library.open(at: url, migrator: Migrator(migrations: [Self.first]))
        let failing = Migration(version: 2, name: "broken", sql: """
            CREATE TABLE half_done (id INTEGER PRIMARY KEY);
            INSERT INTO no_such_table VALUES (1);
            """)

        #expect(throws: SchemaError.self) {
            try Library.open(at: url, migrator: Migrator(migrations: [Self.first, failing]))
        }

        let connection = try Connection(path: url.path)
        #expect(try connection.scalar("PRAGMA user_version", as: Int.self) == 1)
        #expect(try connection.scalar("SELECT max(version) FROM schema_migrations", as: Int.self) == 1)
        #expect(try connection.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'", as: Int.self) == 0)
        #expect(try Library.open(at: url, migrator: Migrator(migrations: [Self.first])).schemaVersion == 1)
    }

    private func connectionCount(_ table: String) throws -> Int {
        try Connection(path: url.path).scalar("SELECT count(*) FROM \(table)") ?? -1
    }
}
