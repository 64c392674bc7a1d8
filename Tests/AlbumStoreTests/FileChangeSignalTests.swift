#if os(Linux)
import Foundation
import Testing
@testable import AlbumStore

/// Inotify wakes a feed on a write to the library's files, and only those.
struct FileChangeSignalTests {
    let directory = try! TemporaryDirectory()

    private func write(_ name: String) throws {
        try Data("x".utf8).write(to: directory.file(name))
    }

    @Test func aWriteToTheWriteAheadLogWakesIt() async throws {
        try write("library.sqlite")
        let signal = try #require(FileChangeSignal.watching(databaseAt: directory.file("library.sqlite").path))
        let log = directory.file("library.sqlite-wal")
        // A thread, not a task: the test must not depend on a free cooperative thread, which a
        // busy suite may not have for seconds.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.1)
            try? Data("x".utf8).write(to: log)
        }

        // Woken, not timed out (how soon is bench-observe's to measure).
        #expect(await signal.wait(upTo: .seconds(30)))
    }

    @Test func otherFilesInTheFolderDoNotWakeIt() async throws {
        try write("library.sqlite")
        let signal = try #require(FileChangeSignal.watching(databaseAt: directory.file("library.sqlite").path))
        try write("notes.txt")

        #expect(await signal.wait(upTo: .milliseconds(200)) == false)
    }

    @Test func deletingTheDatabaseWakesIt() async throws {
        try write("library.sqlite")
        let signal = try #require(FileChangeSignal.watching(databaseAt: directory.file("library.sqlite").path))
        try FileManager.default.removeItem(at: directory.file("library.sqlite"))

        #expect(await signal.wait(upTo: .seconds(5)))
    }
}
#endif
