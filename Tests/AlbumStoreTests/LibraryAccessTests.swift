import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// What opening does to the path, by access: only `.create` creates, reading changes nothing,
/// and what SQLite must not open is refused before it does.
struct LibraryAccessTests {
    let directory: TemporaryDirectory
    var url: URL { directory.file("library.sqlite") }

    init() throws { directory = try TemporaryDirectory() }

    /// The names in the folder, sorted.
    private func entries(_ folder: URL? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: (folder ?? directory.url).path).sorted()
    }

    private func makeLibrary() throws {
        let library = try Library.open(at: url)
        for draft in AlbumDraft.classics { try library.albums.append(draft) }
    }

    private func expectStorageError(
        _ reason: StorageError.Reason, _ description: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("expected \(reason)", sourceLocation: sourceLocation)
        } catch let error as StorageError {
            #expect(error.reason == reason, sourceLocation: sourceLocation)
            #expect(error.description == description, sourceLocation: sourceLocation)
            #expect(error.code == nil, "refused before SQLite was asked", sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected StorageError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [Library.Access.readOnly, .readWrite])
    func openingAMissingFileWithoutCreateCreatesNothing(access: Library.Access) throws {
        let typo = directory.file("typo/music/library.sqlite")

        expectStorageError(.notFound, "no library at \(typo.path)") { _ = try Library.open(at: typo, configuration: .init(access: access)) }
        #expect(try entries().isEmpty)
    }

    @Test func createMakesTheMissingFoldersPrivate() throws {
        let nested = directory.file("data/albumstore/library.sqlite")

        _ = try Library.open(at: nested, configuration: .init(access: .create))

        for folder in ["data", "data/albumstore"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.file(folder).path)
            #expect(attributes[.posixPermissions] as? Int == 0o700, "\(folder)")
        }
    }

    @Test(arguments: [Library.Access.readOnly, .readWrite, .create])
    func aPathThatNamesNoFileIsRefusedAndNothingIsCreated(access: Library.Access) throws {
        let folder = FileManager.default.currentDirectoryPath
        let before = try entries(URL(fileURLWithPath: folder))
        // SQLite would open a throwaway database for the first two, and another file for the third.
        let refusals = [
            ("", "an empty path is not a library file's path: give the path of the library's file"),
            (":memory:", "\":memory:\" is not a library file's path: that is SQLite's throwaway in-memory database; Library.inMemory() makes one on purpose"),
            (url.path + "\0.old", "\"\(url.path)\\0.old\" is not a library file's path: it holds a NUL byte"),
        ]
        for (path, message) in refusals {
            expectStorageError(.notAFilePath, message) { _ = try Library.open(atPath: path, configuration: .init(access: access)) }
        }
        expectStorageError(.notAFilePath, "\"https://example.com/library.sqlite\" is not a library file's path: only a file: URL names a library's file") {
            _ = try Library.open(at: URL(string: "https://example.com/library.sqlite")!, configuration: .init(access: access))
        }
        #expect(try entries().isEmpty)
        #expect(try entries(URL(fileURLWithPath: folder)) == before)
    }

    @Test(arguments: [Library.Access.readOnly, .readWrite, .create])
    func aDirectoryIsRefused(access: Library.Access) throws {
        expectStorageError(.isADirectory, "\(directory.url.path) is a directory, not a library file") {
            _ = try Library.open(at: directory.url, configuration: .init(access: access))
        }
        #expect(try entries().isEmpty)
    }

    @Test(arguments: [Library.Access.readOnly, .readWrite, .create])
    func aFIFOIsRefusedWithoutOpeningIt(access: Library.Access) throws {
        // Opening a FIFO would block until a writer came: the test would hang, not fail.
        let fifo = directory.file("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)

        expectStorageError(.notARegularFile, "\(fifo.path) is not a regular file: it is a FIFO") {
            _ = try Library.open(at: fifo, configuration: .init(access: access))
        }
        #expect(try entries() == ["pipe"])
    }

    @Test(arguments: [Library.Access.readOnly, .readWrite, .create])
    func aDeviceIsRefusedAndGetsNoJournal(access: Library.Access) throws {
        let hadJournal = FileManager.default.fileExists(atPath: "/dev/null-journal")

        expectStorageError(.notARegularFile, "/dev/null is not a regular file: it is a character device") {
            _ = try Library.open(at: URL(fileURLWithPath: "/dev/null"), configuration: .init(access: access))
        }
        if !hadJournal { #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal")) }
    }

    @Test(arguments: [Library.Access.readOnly, .readWrite, .create])
    func aFileWhereAFolderShouldBeIsNamed(access: Library.Access) throws {
        let file = directory.file("notes")
        try Data("x".utf8).write(to: file)
        let path = file.appendingPathComponent("music/library.sqlite")

        expectStorageError(.parentIsAFile, "cannot use \(path.path): \(file.path) is a file, not a folder") {
            _ = try Library.open(at: path, configuration: .init(access: access))
        }
        #expect(try entries() == ["notes"])
    }

    @Test func readingAnEmptyFileDoesNotMakeItALibrary() throws {
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data()))

        expectStorageError(.emptyFile, "\(url.path) is empty, not a library") {
            _ = try Library.open(at: url, configuration: .init(access: .readOnly))
        }
        #expect(try entries() == ["library.sqlite"])
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int == 0)
    }

    @Test func writingToAnEmptyFileMakesItALibrary() throws {
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data()))

        let library = try Library.open(at: url, configuration: .init(access: .readWrite))

        #expect(library.schemaVersion == Library.currentSchemaVersion)
    }

    @Test func aReadOnlyLibraryReadsEverythingAndLeavesTheFolderAsItWas() throws {
        try makeLibrary()
        let bytes = try Data(contentsOf: url)
        let before = try entries()

        do {
            let library = try Library.open(at: url, configuration: .init(access: .readOnly))
            #expect(library.access == .readOnly)
            #expect(try library.titles() == AlbumDraft.classics.map(\.title))
            #expect(try library.albums.album(at: 2).title == "Nothing Like The Sun")
            #expect(try library.historyEntries().count == 5)
            #expect(try library.info().albumCount == 5)
            #expect(try library.check().isEmpty)
        }

        #expect(try entries() == before)
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func aReadOnlyLibraryRefusesEveryCommandBeforeTouchingTheFile() throws {
        try makeLibrary()
        let bytes = try Data(contentsOf: url)
        let library = try Library.open(at: url, configuration: .init(access: .readOnly))
        let readOnly = StorageError(.readOnly, path: url.path, message: "opened for reading only")

        #expect(throws: readOnly) { try library.albums.append(.sample("New")) }
        #expect(throws: readOnly) { try library.albums.delete(at: 0) }
        #expect(throws: readOnly) { try library.undo() }
        #expect(throws: readOnly) { try library.pruneChangeLog() }
        #expect(readOnly.description == "\(url.path) is read-only (opened for reading only)")
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func readingAnOlderLibraryAsksForAWriteToUpgradeIt() throws {
        _ = try FormerLibrary.make(at: url)
        let bytes = try Data(contentsOf: url)

        #expect(throws: SchemaError.needsUpgrade(path: url.path, version: 3, current: Library.currentSchemaVersion)) {
            _ = try Library.open(at: url, configuration: .init(access: .readOnly))
        }
        #expect(try Data(contentsOf: url) == bytes)
        #expect(try Library.open(at: url, configuration: .init(access: .readWrite)).schemaVersion == Library.currentSchemaVersion)
    }

    @Test func aWritingAccessOfAnExistingFileMigratesIt() throws {
        _ = try FormerLibrary.make(at: url)

        #expect(try Library.open(at: url, configuration: .init(access: .readWrite)).schemaVersion == Library.currentSchemaVersion)
    }
}
