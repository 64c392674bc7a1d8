import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// `check` finds what is wrong with a file, one problem per fault, and nothing in a sound one;
/// the static form also reads files `open` refuses.
struct LibraryCheckTests {
    let directory: TemporaryDirectory
    var url: URL { directory.file("library.sqlite") }

    init() throws {
        directory = try TemporaryDirectory()
        let library = try Library.open(at: directory.file("library.sqlite"))
        for draft in AlbumDraft.classics { try library.albums.append(draft) }
        try library.albums.delete(at: 0)
        try library.undo()
    }

    /// Runs SQL as another program would (no AlbumStore code), on its own connection.
    private func outside(_ sql: String) throws {
        try Connection(path: url.path).execute(sql)
    }

    @Test func aSoundLibraryHasNoProblems() throws {
        #expect(try Library.check(at: url).isEmpty)
        #expect(try Library.open(at: url).check().isEmpty)
        #expect(try Library.inMemory().check().isEmpty)
    }

    @Test func aFlippedByteInTheOrderIndexIsAProblemOfTheFile() throws {
        let library = try Library.open(at: url)
        try library.albums.append(contentsOf: (1...200).map { AlbumDraft.sample("Album \($0)") })
        let (root, pageSize) = try Self.indexPage("albums_position", of: url)
        try Self.flipByte(inCellsOfPage: root, pageSize: pageSize, of: url)

        let problems = try Library.check(at: url)

        #expect(!problems.isEmpty)
        #expect(problems.allSatisfy { $0.area == .file })
        #expect(problems.contains { $0.message.contains("albums_position") })
    }

    @Test func albumsWithoutAKeyOfTheirOwnAreNamed() throws {
        try outside("""
            UPDATE albums SET position = 'middle' WHERE id = 2;
            UPDATE albums SET position = (SELECT position FROM albums WHERE id = 3) WHERE id = 4;
            """)

        let problems = try Library.check(at: url)

        #expect(problems.map(\.area) == [.albums, .albums])
        #expect(problems[0].message.hasPrefix("1 album without an integer position key (ids 2)"))
        #expect(problems[1].message.hasPrefix("1 position key shared by several albums (key "))
        #expect(problems[1].message.contains(": albums 3, 4)"))
    }

    @Test func historyEntriesThatCannotBeReadBackAreNamed() throws {
        try outside("""
            UPDATE history SET changeset = x'54000102ff' WHERE id = 1;
            UPDATE history SET appended_ids = 'seven' WHERE id = 2;
            """)

        let problems = try Library.check(at: url)

        #expect(problems.map(\.area) == [.history, .history])
        #expect(problems[0].message.hasPrefix("entry 1: its changeset cannot be read"))
        #expect(problems[1].message == #"entry 2: its appended ids cannot be read ("seven")"#)
    }

    @Test func aChangeLogOutOfItsBoundsIsNamed() throws {
        try outside("UPDATE change_control SET pruned_through = 1000000, bulk = 1")

        let problems = try Library.check(at: url).map(\.description)

        #expect(problems.count == 2)
        #expect(problems[0].hasPrefix("change log: change_control.bulk is 1 outside a write"))
        #expect(problems[1].hasPrefix("change log: entries from seq 1 are at or below pruned_through 1000000"))
    }

    @Test func transactionNumbersGoingBackAreNamed() throws {
        try outside("UPDATE change_log SET tx = 0 WHERE seq = (SELECT max(seq) FROM change_log)")

        #expect(try Library.check(at: url).map(\.description) == [
            "change log: transaction numbers go back at seq \(try Self.maxSeq(url))",
        ])
    }

    @Test func missingAndEditedTriggersAreNamedAndAWritingOpenRepairsThem() throws {
        try outside("""
            DROP TRIGGER albums_log_insert;
            DROP TRIGGER albums_log_delete;
            CREATE TRIGGER albums_log_delete AFTER DELETE ON albums BEGIN SELECT 1; END;
            """)

        #expect(try Library.check(at: url).map(\.description) == [
            "triggers: albums_log_insert is missing; opening the library for writing installs it",
            "triggers: albums_log_delete differs from the generated trigger; opening the library for writing replaces it",
        ])
        _ = try Library.open(at: url, configuration: .init(access: .readWrite))
        #expect(try Library.check(at: url).isEmpty)
    }

    @Test func filesThatAreNotLibrariesAreOneProblem() throws {
        let text = directory.file("notes.txt")
        try Data(String(repeating: "shopping list\n", count: 20).utf8).write(to: text)
        #expect(try Library.check(at: text) == [LibraryProblem(.file, "not a SQLite database")])

        let foreign = directory.file("foreign.sqlite")
        try Connection(path: foreign.path).execute("CREATE TABLE t(x)")
        let problems = try Library.check(at: foreign)
        #expect(problems.map(\.area) == [.schema])
        #expect(problems.first?.message.hasPrefix("not an AlbumStore library") == true)
    }

    @Test func anOlderLibraryIsCheckedWithoutBeingUpgraded() throws {
        let former = directory.file("former.sqlite")
        _ = try FormerLibrary.make(at: former)

        #expect(try Library.check(at: former).isEmpty)
        #expect(try Connection(path: former.path).scalar("PRAGMA user_version", as: Int.self) == 3)
    }

    @Test func checkingWhatIsNotThereThrowsInsteadOfCreatingIt() throws {
        let missing = directory.file("missing/library.sqlite")
        #expect(throws: StorageError(.notFound, path: missing.path)) { try Library.check(at: missing) }
        #expect(!FileManager.default.fileExists(atPath: directory.file("missing").path))
    }

    /// The root page of index `name` and the page size, read by the sqlite3 shell's way of
    /// asking: its own connection, closed (and the file checkpointed) on return.
    static func indexPage(_ name: String, of url: URL) throws -> (root: Int, pageSize: Int) {
        let connection = try Connection(path: url.path)
        let root = try #require(try connection.scalar("SELECT rootpage FROM sqlite_schema WHERE name = ?", name, as: Int.self))
        let pageSize = try #require(try connection.scalar("PRAGMA page_size", as: Int.self))
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return (root, pageSize)
    }

    /// Inverts one byte in the middle of the cell content of page `page` (1-based): in the
    /// records themselves, never in a page's unused space, where a change would go unseen.
    static func flipByte(inCellsOfPage page: Int, pageSize: Int, of url: URL) throws {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        let start = UInt64((page - 1) * pageSize)
        try handle.seek(toOffset: start)
        let header = try #require(try handle.read(upToCount: 8))
        // Bytes 5-6 of a b-tree page header: where the cell content area starts.
        let contentStart = Int(header[5]) << 8 | Int(header[6])
        let offset = start + UInt64((contentStart + pageSize) / 2)
        try handle.seek(toOffset: offset)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: [byte ^ 0xFF])
    }

    static func maxSeq(_ url: URL) throws -> Int64 {
        try #require(try Connection(path: url.path).scalar("SELECT max(seq) FROM change_log", as: Int64.self))
    }
}
