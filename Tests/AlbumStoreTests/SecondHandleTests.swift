import Foundation
import TestSupport
import Testing
@testable import AlbumStore

/// A second handle on a library's file inside the process that writes it, while another process
/// opens the file, writes and exits: every acknowledged write must survive.
///
/// The danger: on POSIX, closing any descriptor of a file drops every lock the process holds on
/// it. A process that opened and closed its own database file (to read its header, say) looked
/// to the other process like no connection at all: that one, the last to close, checkpointed and
/// deleted the write-ahead log, and the commits this process made afterwards were acknowledged
/// and lost (sqlite.org/howtocorrupt.html §2.2).
struct SecondHandleTests {
    /// Each way this process can come to touch the file beside its writing `Library`.
    enum Handle: String, CaseIterable, CustomTestStringConvertible {
        case readOnlyOpen, check, backup, info, changeFeed, secondLibrary, headerRead
        case importOfTheLibraryFile, coverFromTheWAL, snapshotFromTheLibraryFile

        var testDescription: String { rawValue }
    }

    @Test(arguments: Handle.allCases)
    func acknowledgedWritesSurviveASecondHandleAndAnotherProcess(handle: Handle) throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        var library: Library? = try Library.open(at: url)
        let writer = try #require(library)
        for index in 0..<5 { try writer.albums.append(.sample("before \(index)")) }

        let held = try open(handle, on: url, beside: writer, in: directory)

        // Other processes open the file, commit and exit, each the last connection of its own:
        // the sqlite3 shell, and the real `albumstore` binary.
        try SQLiteShell.run("UPDATE albums SET genre = 'set elsewhere' WHERE title = 'before 0'", on: url.path)
        try runAlbumstore(["add", "--db", url.path, "--title", "from albumstore", "--artist", "Child"])
        for index in 0..<10 { try writer.albums.append(.sample("after \(index)")) }
        #expect(try writer.albums.count() == 16)

        withExtendedLifetime(held) {}
        library = nil
        // Everything closed: what is on disk is what a later process sees.
        let reopened = try Library.open(at: url)
        #expect(try reopened.albums.count() == 16)
        #expect(try reopened.albums.album(at: 5).title == "from albumstore")
        #expect(try reopened.albums.album(at: 0).genre == "set elsewhere")
        #expect(try reopened.check().isEmpty)
        #expect(try SQLiteShellOutput.run("PRAGMA integrity_check", on: url.path) == "ok\n")
    }

    /// Does what `handle` names and returns what must stay alive until the writes are done.
    private func open(_ handle: Handle, on url: URL, beside writer: Library, in directory: TemporaryDirectory) throws -> Any? {
        switch handle {
        case .readOnlyOpen:
            let reader = try Library.open(at: url, configuration: .init(access: .readOnly))
            _ = try reader.albums.count()
            return reader
        case .check:
            #expect(try Library.check(at: url).isEmpty)
            return nil
        case .backup:
            try writer.backup(to: directory.file("backup.sqlite"))
            return nil
        case .info:
            let info = try writer.info()
            #expect(info.fileSize > 0)
            return nil
        case .changeFeed:
            var feed = writer.changeFeed(since: -1).makeAsyncIterator()
            #expect(try feed.backlog().count == 1)
            return feed
        case .secondLibrary:
            let second = try Library.open(at: url)
            try second.albums.append(.sample("from the second library"))
            try second.albums.delete(at: try second.albums.count() - 1)
            return second
        case .headerRead:
            #expect(OpenPlan.isWAL(url.path))
            return nil
        case .importOfTheLibraryFile:
            let error = try #require(throws: (any Error).self) {
                try writer.importAlbums(from: .file(url.path))
            }
            #expect("\(error)".contains("open library's database file"))
            return nil
        case .coverFromTheWAL:
            let wal = URL(fileURLWithPath: url.path + "-wal")
            let id = try writer.albums.album(at: 0).id
            let error = try #require(throws: (any Error).self) {
                try writer.covers.set(albumID: id, from: .file(wal))
            }
            #expect("\(error)".contains("beside the open library"))
            return nil
        case .snapshotFromTheLibraryFile:
            let error = try #require(throws: (any Error).self) { try SnapshotFile.snapshot(contentsOf: url) }
            #expect("\(error)".contains("open library's database file"))
            return nil
        }
    }
}

/// Runs the `albumstore` binary SwiftPM built beside this test bundle, and requires exit 0.
private func runAlbumstore(_ arguments: [String]) throws {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("albumstore").path),
          folder.pathComponents.count > 1 {
        folder.deleteLastPathComponent()
    }
    let process = Process()
    process.executableURL = folder.appendingPathComponent("albumstore")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "albumstore \(arguments.joined(separator: " ")) failed")
}

/// The `sqlite3` shell's output for `sql`.
enum SQLiteShellOutput {
    static func run(_ sql: String, on path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", "-bail", path, sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: printed, as: UTF8.self)
    }
}
