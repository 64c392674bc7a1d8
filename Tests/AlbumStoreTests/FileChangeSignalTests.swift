#if os(Linux)
import Foundation
import TestSupport
import Testing
@testable import AlbumStore

/// Inotify wakes a feed on a write to the library's files, and only those.
struct FileChangeSignalTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    private func write(_ name: String) throws {
        try Data("x".utf8).write(to: directory.file(name))
    }

    /// Writes to the end of an existing file: a modification, not a creation or a rename.
    private func append(_ name: String) throws {
        let handle = try FileHandle(forWritingTo: directory.file(name))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("x".utf8))
        try handle.close()
    }

    @Test func aWriteToTheWriteAheadLogWakesIt() async throws {
        try write("library.sqlite")
        let signal = try #require(FileChangeSignal.watching(databaseAt: directory.file("library.sqlite").path))
        try write("library.sqlite-wal")

        // Woken, not timed out: the kernel keeps the event until a wait reads it (how soon a
        // waiting feed wakes is bench-observe's to measure).
        #expect(await signal.wait(upTo: .seconds(30)))
    }

    @Test func otherFilesInTheFolderDoNotWakeIt() async throws {
        try write("library.sqlite")
        let signal = try #require(FileChangeSignal.watching(databaseAt: directory.file("library.sqlite").path))
        try write("notes.txt")

        // The kernel queued the event before `write` returned: a wait that reads it and is not
        // woken has looked at it. Then the marker: a write that must wake it.
        #expect(await signal.wait(upTo: .milliseconds(1)) == false)
        try write("library.sqlite-wal")
        #expect(await signal.wait(upTo: .seconds(30)))
    }

    @Test func ignoringWritesItIsNotWokenByOneButIsByADeletion() async throws {
        try write("library.sqlite")
        try write("library.sqlite-wal")
        let signal = try #require(FileChangeSignal.watching(databaseAt: directory.file("library.sqlite").path))
        signal.listenForWrites(false)
        try append("library.sqlite-wal")

        #expect(await signal.wait(upTo: .milliseconds(1)) == false)
        try FileManager.default.removeItem(at: directory.file("library.sqlite"))
        #expect(await signal.wait(upTo: .seconds(5)))
    }

    @Test func listeningForWritesAgainItIsWokenByOne() async throws {
        try write("library.sqlite")
        try write("library.sqlite-wal")
        let signal = try #require(FileChangeSignal.watching(databaseAt: directory.file("library.sqlite").path))
        signal.listenForWrites(false)
        signal.listenForWrites(true)
        try append("library.sqlite-wal")

        #expect(await signal.wait(upTo: .seconds(30)))
    }

    @Test func deletingTheDatabaseWakesIt() async throws {
        try write("library.sqlite")
        let signal = try #require(FileChangeSignal.watching(databaseAt: directory.file("library.sqlite").path))
        try FileManager.default.removeItem(at: directory.file("library.sqlite"))

        #expect(await signal.wait(upTo: .seconds(5)))
    }
}
#endif
