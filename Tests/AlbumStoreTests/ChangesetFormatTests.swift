import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// Malformed changesets are told from real ones in bounded time, before SQLite (which loops
/// forever on some of them) reads them.
struct ChangesetFormatTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    @Test func changesetsRecordedByTheLibraryAreWellFormed() throws {
        let library = try Library.open(at: directory.file("library.sqlite"))
        for draft in AlbumDraft.classics { try library.albums.append(draft) }
        try library.albums.update(id: 2) { $0.genre = nil; $0.title = "It’s My Life ✨" }
        try library.albums.move(id: 1, to: 3)
        try library.albums.delete(at: 0)
        try library.undo()

        let changesets = try library.read { connection in
            try connection.query("SELECT changeset FROM history") { try $0[0, as: Data.self] }
        }

        #expect(changesets.count == 8)
        for changeset in changesets { #expect(ChangesetFormat.problem(in: changeset) == nil) }
    }

    @Test(arguments: [
        ([0x54], "a table header has no valid column count"),
        ([0x54, 0x00, 0x01, 0x02, 0xFF], "a table header has no valid column count"),
        ([0x54, 0x01, 0x01, 0x61], "a table name is not terminated"),
        ([0x12, 0x00], "a change comes before any table header"),
        ([0x54, 0x01, 0x01, 0x61, 0x00, 0x12, 0x00, 0x01, 0x00], "a number ends early"),
        ([0x54, 0x01, 0x01, 0x61, 0x00, 0x12, 0x00, 0x03, 0x7F, 0x41], "a text or blob is longer than the changeset"),
        ([0x54, 0x01, 0x01, 0x61, 0x00, 0x12, 0x00, 0x09], "a field has unknown type 9"),
        ([0xDE, 0xAD], "byte 0 is neither a table header nor a change"),
    ] as [([UInt8], String)])
    func malformedChangesetsAreNamed(bytes: [UInt8], problem: String) {
        #expect(ChangesetFormat.problem(in: Data(bytes)) == problem)
    }

    @Test func anEmptyChangesetAndAWellFormedOneAreAccepted() {
        #expect(ChangesetFormat.problem(in: Data()) == nil)
        // Table "a" (1 column, the key); INSERT of integer 7.
        #expect(ChangesetFormat.problem(in: Data([0x54, 0x01, 0x01, 0x61, 0x00, 0x12, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 7])) == nil)
    }

    @Test func undoOfAnEntryWhoseChangesetWouldHangSQLiteIsRefused() throws {
        let url = directory.file("library.sqlite")
        let library = try Library.open(at: url)
        try library.albums.append(.sample("Kept"))
        try Connection(path: url.path).execute("UPDATE history SET changeset = x'54'")

        let error = try withDeadline { () -> HistoryError? in
            do { try library.undo() } catch let error as HistoryError { return error }
            return nil
        } ?? nil

        #expect(error == .conflict(command: "add “Kept” by Artist",
                                   reason: "its recorded changes cannot be read (a table header has no valid column count)"))
        #expect(try library.titles() == ["Kept"])
    }
}
