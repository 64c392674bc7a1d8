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
        let writer = Task {
            try await Task.sleep(for: .milliseconds(100))
            try Data("x".utf8).write(to: log)
        }
        let start = ContinuousClock.now

        #expect(await signal.wait(upTo: .seconds(5)))
        #expect(ContinuousClock.now - start < .seconds(2))
        try await writer.value
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
