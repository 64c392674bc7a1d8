import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// The snapshot file format: round trips, the version migration, and bad files refused with
/// the state unchanged.
struct SnapshotFileTests {
    let directory: TemporaryDirectory
    let library: Library

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
        try library.albums.append(contentsOf: (0..<3).map { .sample("Album \($0)") })
        try library.session.setCurrentAlbum(at: 2)
        try library.session.setTabOrder(["covers", "détails", "🎵"])
        try library.session.setValue(.object(["a": .array([.integer(-1), .double(2.5), .null, .string("x\n\"y")])]), forKey: "nested")
        try library.session.takeSnapshot(named: "saved")
    }

    private var session: Session { library.session }

    /// Every row the session tables hold, to prove nothing changed.
    private func sessionRows() throws -> [[[SQLiteValue]]] {
        try ["session_state", "session_keys", "session_snapshots"].map { try library.rows(of: $0) }
    }

    private func write(_ text: String, to name: String) throws -> URL {
        let url = directory.file(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// Expects `text` refused with a message that starts with the file's path and contains `part`.
    private func expectRefused(_ text: String, saying part: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = try write(text, to: "bad.json")
        let rows = try sessionRows()
        do {
            try session.importSnapshot(contentsOf: url, as: "imported")
            Issue.record("imported", sourceLocation: sourceLocation)
        } catch let error as SessionError {
            #expect("\(error)".hasPrefix(url.path + ": "), sourceLocation: sourceLocation)
            #expect("\(error)".contains(part), "\(error)", sourceLocation: sourceLocation)
        }
        #expect(try sessionRows() == rows, sourceLocation: sourceLocation)
    }

    private var exported: String { get throws { String(decoding: try session.exportSnapshot(named: "saved"), as: UTF8.self) } }

    /// Found by the snapshot fuzz target: -5e-325 reads as -0.0, which was written `-0` and
    /// read back as the integer 0, so the second file differed from the first. `-0` now reads
    /// back as -0.0: the value keeps its sign, and the file reads the same every time.
    @Test func negativeZeroIsWrittenAsTheFileReadsItBack() throws {
        let file = #"{"format":"albumstore-session-snapshot","format_version":2,"albumstore_version":"0.9.0","exported_at":"2026-11-22T08:15:03.000Z","name":"z","taken_at":"2026-11-22T08:15:03.000Z","state":{"keys":{"tiny":-5e-325,"zero":-0.0}}}"#
        let snapshot = try SnapshotFile.snapshot(from: Data(file.utf8), source: "z.json")
        let written = SnapshotFile.data(for: snapshot, exportedAt: Date(timeIntervalSince1970: 0))
        let again = try SnapshotFile.snapshot(from: written, source: "again.json")
        #expect(SnapshotFile.data(for: again, exportedAt: Date(timeIntervalSince1970: 0)) == written)
        #expect(String(decoding: written, as: UTF8.self).contains("\"tiny\" : -0,"))
    }

    @Test func aSnapshotRoundTripsThroughAFile() throws {
        let url = directory.file("saved.json")
        try session.exportSnapshot(named: "saved").write(to: url)
        let imported = try session.importSnapshot(contentsOf: url, as: "copy")
        var original = try session.snapshot(named: "saved")
        original.name = "copy"
        #expect(imported == original)
        #expect(try session.snapshot(named: "copy") == original)
    }

    @Test func theFileRecordsItsFormatVersionAndTimes() throws {
        let document = try JSONValue(parsing: session.exportSnapshot(named: "saved", exportedAt: Date(millisecondsSince1970: 0)))
        guard case let .object(members) = document else { Issue.record("not an object"); return }
        #expect(members["format"] == .string("albumstore-session-snapshot"))
        #expect(members["format_version"] == .integer(2))
        #expect(members["albumstore_version"] == .string(Library.version))
        #expect(members["exported_at"] == .string("1970-01-01T00:00:00.000Z"))
        #expect(members["name"] == .string("saved"))
    }

    @Test func aVersionOneFileIsMigrated() throws {
        let url = try write("""
            {"format": "albumstore-session-snapshot", "format_version": 1, "albumstore_version": "0.0.9",
             "exported_at": "2026-01-01T00:00:00Z", "name": "old", "taken_at": "2025-12-31T23:00:00Z",
             "state": {"current_index": 7, "tabs": ["b", "a"], "keys": {"k": 1}}}
            """, to: "old.json")
        let snapshot = try session.importSnapshot(contentsOf: url)
        #expect(snapshot.name == "old")
        #expect(snapshot.state == SessionState(currentAlbum: CurrentAlbum(index: 7, albumID: nil), tabOrder: ["b", "a"], keys: ["k": .integer(1)]))
        // No album id: the index is clamped when restored.
        let restore = try session.restoreSnapshot(named: "old")
        #expect(restore.currentAlbum?.index == 2 && restore.currentAlbum?.isSavedAlbum == false)
    }

    @Test func aTruncatedFileIsRefused() throws {
        try expectRefused(String(exported.prefix(exported.count / 2)), saying: "not JSON")
        try expectRefused("", saying: "the file is empty")
    }

    @Test func notJSONIsRefused() throws {
        try expectRefused("name = saved\n", saying: "not JSON")
    }

    @Test func aNewerVersionIsRefused() throws {
        try expectRefused(exported.replacingOccurrences(of: "\"format_version\" : 2", with: "\"format_version\" : 3"),
                          saying: "format_version: version 3 was written by a newer AlbumStore; this one reads up to 2")
    }

    @Test func aForeignFileIsRefused() throws {
        try expectRefused("{\"albums\": []}", saying: "not an AlbumStore session snapshot")
        try expectRefused("[1, 2]", saying: "not an AlbumStore session snapshot")
    }

    @Test func wrongTypesAreRefusedWithTheirPlace() throws {
        try expectRefused(exported.replacingOccurrences(of: "\"format_version\" : 2", with: "\"format_version\" : \"2\""),
                          saying: "format_version: expected an integer, found a string")
        try expectRefused(exported.replacingOccurrences(of: "\"🎵\"", with: "42"),
                          saying: "state.tab_order[2]: expected a string, found a number")
        try expectRefused(exported.replacingOccurrences(of: "\"index\" : 2", with: "\"index\" : 2.5"),
                          saying: "state.current_album.index: expected an integer, found a number")
        try expectRefused(exported.replacingOccurrences(of: "\"🎵\"", with: "\"covers\""), saying: "state.tab_order: tab 2 repeats")
    }

    @Test func aFileOver32MiBIsRefusedBeforeItIsRead() throws {
        let url = directory.file("huge.json")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 100 << 20)   // 100 MB, sparse
        try handle.close()
        let rows = try sessionRows()
        #expect(throws: SessionError.badSnapshotFile(source: url.path, place: "", reason: SnapshotFile.tooLarge(100 << 20))) {
            try session.importSnapshot(contentsOf: url)
        }
        #expect(try sessionRows() == rows)
    }

    @Test func importingUnderATakenNameIsRefused() throws {
        let url = directory.file("saved.json")
        try session.exportSnapshot(named: "saved").write(to: url)
        let rows = try sessionRows()
        #expect(throws: SessionError.snapshotExists("saved")) { try session.importSnapshot(contentsOf: url) }
        #expect(try sessionRows() == rows)
    }
}
