import Foundation
import AlbumSQLite
import Testing
@testable import AlbumStore

/// A storage failure reads as one plain sentence naming the file; SQLite's code, message and
/// statement stay in `detail` for a bug report.
struct StorageErrorTests {
    static let path = "/music/library.sqlite"

    private func error(_ code: Int32, _ message: String, sql: String? = nil, busyTimeout: Duration = .seconds(5)) -> StorageError {
        StorageError(SQLiteError(extendedCode: code, message: message, sql: sql), path: Self.path, busyTimeout: busyTimeout)
    }

    @Test func busySaysAnotherProcessIsWritingAndHowLongItWaited() {
        let busy = error(5, "database is locked", sql: "BEGIN IMMEDIATE")
        #expect(busy.reason == .busy)
        #expect(busy.description == "another process is writing to /music/library.sqlite; gave up after 5 s")
        #expect(busy.detail == "SQLite error 5 (database is locked): database is locked in `BEGIN IMMEDIATE`")
        #expect(error(5, "database is locked", busyTimeout: .milliseconds(250)).description.hasSuffix("gave up after 250 ms"))
        #expect(error(6, "database table is locked", busyTimeout: .milliseconds(1500)).description.hasSuffix("gave up after 1.5 s"))
    }

    @Test func readOnlySaysSoWithoutSQLitesWording() {
        let readOnly = error(8, "attempt to write a readonly database")
        #expect(readOnly.reason == .readOnly)
        #expect(readOnly.description == "/music/library.sqlite is read-only")
        #expect(error(1032, "attempt to write a readonly database").description == "/music/library.sqlite is read-only")
    }

    @Test func aDamagedFileSaysToRestoreABackup() {
        let corrupt = error(11, "database disk image is malformed", sql: "PRAGMA synchronous = NORMAL")
        #expect(corrupt.reason == .corrupt)
        #expect(corrupt.description == "/music/library.sqlite is damaged: database disk image is malformed; restore a backup")
        #expect(corrupt.detail.hasPrefix("SQLite error 11 (database disk image is malformed)"))
        #expect(error(26, "file is not a database").reason == .corrupt)
    }

    @Test func aFullDiskAndOtherIOFailuresNameTheFile() {
        #expect(error(13, "database or disk is full").description == "cannot write to /music/library.sqlite: the disk is full")
        #expect(error(14, "unable to open database file").description
            == "cannot read or write /music/library.sqlite: unable to open database file")
        #expect(error(778, "disk I/O error").reason == .io)
        #expect(error(3, "access permission denied").description
            == "cannot open /music/library.sqlite: permission denied (access permission denied)")
    }

    @Test func noSentenceMentionsSQLiteErrorCodes() {
        for code: Int32 in [1, 3, 5, 6, 8, 10, 11, 13, 14, 19, 21, 26, 2067] {
            #expect(!error(code, "message").description.contains("SQLite error"))
            #expect(error(code, "message").detail.contains("SQLite error \(code)"))
        }
    }

    @Test func theFileSystemsRefusalsHaveNoSQLiteCode() {
        let error = StorageError(.parentIsAFile, path: "/a/b/c.sqlite", parent: "/a/b")
        #expect(error.description == "cannot use /a/b/c.sqlite: /a/b is a file, not a folder")
        #expect(error.code == nil && error.detail == "")
    }

    @Test func timeoutsAreSaidAsPeopleSayThem() {
        #expect(StorageError.format(.seconds(5)) == "5 s")
        #expect(StorageError.format(.milliseconds(200)) == "200 ms")
        #expect(StorageError.format(.milliseconds(2500)) == "2.5 s")
        #expect(StorageError.format(.zero) == "0 s")
    }
}
