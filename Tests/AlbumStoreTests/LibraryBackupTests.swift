import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// A backup is the library as it was, written whole or not at all, and never over a file
/// without being asked.
struct LibraryBackupTests {
    let directory: TemporaryDirectory
    let library: Library

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
        for draft in AlbumDraft.classics { try library.albums.append(draft) }
        try library.albums.move(id: 1, to: 4)
    }

    private func entries(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.file(folder).path).sorted()
    }

    @Test func theCopyIsTheSameLibraryAndPassesTheCheck() throws {
        let destination = directory.file("backups/copy.sqlite")

        try library.backup(to: destination)

        let copy = try Library.open(at: destination, configuration: .init(access: .readOnly))
        #expect(try copy.albums.page().map(\.album) == library.albums.page().map(\.album))
        #expect(try copy.historyEntries() == library.historyEntries())
        #expect(try Library.check(at: destination).isEmpty)
        #expect(try entries("backups").filter { !$0.hasPrefix("copy.sqlite") }.isEmpty, "no temporary file left")
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.file("backups").path)
        #expect(attributes[.posixPermissions] as? Int == 0o700)
    }

    @Test func anExistingFileIsKeptUnlessOverwriteIsAsked() throws {
        let destination = directory.file("copy.sqlite")
        try Data("keep me".utf8).write(to: destination)

        #expect(throws: StorageError(.alreadyExists, path: destination.path)) { try library.backup(to: destination) }
        #expect(try Data(contentsOf: destination) == Data("keep me".utf8))
        #expect(try entries(".").filter { !$0.hasPrefix("library.sqlite") } == ["copy.sqlite"], "no temporary file left")

        try library.backup(to: destination, overwrite: true)
        #expect(try Library.open(at: destination, configuration: .init(access: .readOnly)).albums.count() == 5)
    }

    @Test func theLibraryIsNeverItsOwnBackup() throws {
        let same = URL(fileURLWithPath: library.path)
        #expect(throws: StorageError.self) { try library.backup(to: same, overwrite: true) }
        #expect(try library.albums.count() == 5)
    }

    @Test func aDirectoryOrAFolderThatIsAFileIsRefused() throws {
        #expect(throws: StorageError(.isADirectory, path: directory.url.path)) {
            try library.backup(to: directory.url, overwrite: true)
        }
        let file = directory.file("notes")
        try Data("x".utf8).write(to: file)
        let inside = file.appendingPathComponent("copy.sqlite")
        #expect(throws: StorageError(.parentIsAFile, path: inside.path, parent: file.path)) { try library.backup(to: inside) }
    }

    @Test func aReadOnlyLibraryAndAnInMemoryOneCanBeBackedUp() throws {
        let readOnly = try Library.open(at: URL(fileURLWithPath: library.path), configuration: .init(access: .readOnly))
        try readOnly.backup(to: directory.file("from-read-only.sqlite"))
        #expect(try Library.check(at: directory.file("from-read-only.sqlite")).isEmpty)

        let memory = try Library.inMemory()
        try memory.albums.append(.sample("Only here"))
        try memory.backup(to: directory.file("from-memory.sqlite"))
        #expect(try Library.open(at: directory.file("from-memory.sqlite"), configuration: .init(access: .readOnly)).titles() == ["Only here"])
    }

    @Test func aBackupHoldsWhatWasCommittedBeforeItBeganWhileAWriterGoesOn() throws {
        // The writer is a thread of its own, not a task: a loop of blocking writes on one of
        // Swift's few cooperative threads could starve the other tests.
        let path = library.path
        let stop = Box(false)
        let written = Box(0)
        let threeWritten = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { finished.signal() }
            guard let other = try? Library.open(at: URL(fileURLWithPath: path)) else { return }
            while stop.value != true {
                guard (try? other.albums.append(.sample("Written meanwhile"))) != nil else { return }
                written.value = (written.value ?? 0) + 1
                if written.value == 3 { threeWritten.signal() }
            }
        }
        defer {
            stop.value = true
            finished.wait()
        }
        try #require(threeWritten.wait(timeout: .now() + 10) == .success, "the writer did not write")
        let before = try library.albums.count()

        try library.backup(to: directory.file("copy.sqlite"))
        let writtenDuringBackup = written.value ?? 0

        let copy = try Library.open(at: directory.file("copy.sqlite"), configuration: .init(access: .readOnly))
        #expect(try copy.albums.count() >= before)
        #expect(try Library.check(at: directory.file("copy.sqlite")).isEmpty)
        #expect(writtenDuringBackup >= 3)
    }
}
