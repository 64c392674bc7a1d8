import CSQLite
import Foundation
import AlbumSQLite
import Testing
import TestSupport

/// Incremental blob I/O: `zeroblob(n)`, then chunked writes and reads through a `Blob` handle.
struct BlobTests {
    static let size = 10 * 1024 * 1024
    static let chunk = 64 * 1024

    let directory: TemporaryDirectory
    let connection: Connection

    init() throws {
        directory = try TemporaryDirectory()
        connection = try directory.open()
        try connection.execute("CREATE TABLE files(id INTEGER PRIMARY KEY, name TEXT, content BLOB)")
    }

    /// Bytes that differ from chunk to chunk, so a chunk written at the wrong offset shows.
    private static func pattern(count: Int) -> Data {
        var data = Data(count: count)
        data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            for index in 0..<count { buffer[index] = UInt8(truncatingIfNeeded: index ^ (index >> 8) ^ (index >> 16)) }
        }
        return data
    }

    private func insertZeroBlob(size: Int) throws -> Int64 {
        try connection.run("INSERT INTO files(name, content) VALUES ('cover', zeroblob(?))", size)
        return connection.lastInsertRowID
    }

    @Test func chunkedWriteThenChunkedReadGivesBackTenMegabytes() throws {
        let pattern = Self.pattern(count: Self.size)
        let rowID = try insertZeroBlob(size: Self.size)
        do {
            let blob = try connection.openBlob(table: "files", column: "content", rowID: rowID, writable: true)
            #expect(blob.count == Self.size)
            for offset in stride(from: 0, to: Self.size, by: Self.chunk) {
                try blob.write(pattern[offset..<min(offset + Self.chunk, Self.size)], at: offset)
            }
        }
        var readBack = Data()
        let blob = try connection.openBlob(table: "files", column: "content", rowID: rowID)
        for offset in stride(from: 0, to: blob.count, by: Self.chunk) {
            let piece = try blob.read(count: Self.chunk, at: offset)
            #expect(piece.count == min(Self.chunk, Self.size - offset))
            readBack.append(piece)
        }
        #expect(readBack.count == Self.size)
        #expect(readBack == pattern)
    }

    @Test func chunkedWritesAreWhatSQLReads() throws {
        let pattern = Self.pattern(count: 300_000)
        let rowID = try insertZeroBlob(size: pattern.count)
        do {
            let blob = try connection.openBlob(table: "files", column: "content", rowID: rowID, writable: true)
            for offset in stride(from: 0, to: pattern.count, by: Self.chunk) {
                try blob.write(pattern[offset..<min(offset + Self.chunk, pattern.count)], at: offset)
            }
        }
        #expect(try connection.scalar("SELECT content FROM files WHERE id = ?", rowID, as: Data.self) == pattern)
    }

    @Test func readNearTheEndReturnsFewerBytes() throws {
        let pattern = Self.pattern(count: 1000)
        try connection.run("INSERT INTO files(name, content) VALUES ('cover', ?)", pattern)
        let blob = try connection.openBlob(table: "files", column: "content", rowID: connection.lastInsertRowID)
        let tail = try blob.read(count: Self.chunk, at: 990)
        #expect(tail == pattern[990..<1000])
        #expect(try blob.read(count: 10, at: 1000).isEmpty)
    }

    @Test func readIntoBufferReadsExactlyItsSize() throws {
        let pattern = Self.pattern(count: 1000)
        try connection.run("INSERT INTO files(name, content) VALUES ('cover', ?)", pattern)
        let blob = try connection.openBlob(table: "files", column: "content", rowID: connection.lastInsertRowID)
        var bytes = [UInt8](repeating: 0, count: 100)
        try bytes.withUnsafeMutableBytes { try blob.read(into: $0, at: 500) }
        #expect(Data(bytes) == pattern[500..<600])
    }

    @Test func handleExpiresWithAbortWhenTheRowIsUpdated() throws {
        let rowID = try insertZeroBlob(size: 1000)
        let blob = try connection.openBlob(table: "files", column: "content", rowID: rowID)
        #expect(try blob.read(count: 10, at: 0) == Data(count: 10))
        try connection.run("UPDATE files SET name = 'renamed' WHERE id = ?", rowID)
        let error = try #require(throws: SQLiteError.self) { _ = try blob.read(count: 10, at: 0) }
        #expect(error.code == SQLITE_ABORT)
    }

    @Test
    func expiredHandleKeepsThrowingAbort() throws {
        let rowID = try insertZeroBlob(size: 1000)
        let blob = try connection.openBlob(table: "files", column: "content", rowID: rowID)
        try connection.run("UPDATE files SET name = 'renamed' WHERE id = ?", rowID)
        #expect(throws: SQLiteError.self) { _ = try blob.read(count: 10, at: 0) }
        let error = try #require(throws: SQLiteError.self) { _ = try blob.read(count: 10, at: 0) }
        #expect(error.code == SQLITE_ABORT)
    }

    @Test func writeOnExpiredHandleThrowsAbort() throws {
        let rowID = try insertZeroBlob(size: 1000)
        let blob = try connection.openBlob(table: "files", column: "content", rowID: rowID, writable: true)
        try connection.run("DELETE FROM files WHERE id = ?", rowID)
        let error = try #require(throws: SQLiteError.self) { try blob.write(Data([1, 2, 3]), at: 0) }
        #expect(error.code == SQLITE_ABORT)
    }

    @Test func writePastTheEndFailsBecauseBlobsCannotGrow() throws {
        let rowID = try insertZeroBlob(size: 100)
        let blob = try connection.openBlob(table: "files", column: "content", rowID: rowID, writable: true)
        let error = try #require(throws: SQLiteError.self) { try blob.write(Data(count: 10), at: 95) }
        #expect(error.code == SQLITE_ERROR)
        #expect(blob.count == 100)
    }

    @Test func readOnlyHandleRefusesWrites() throws {
        let rowID = try insertZeroBlob(size: 100)
        let blob = try connection.openBlob(table: "files", column: "content", rowID: rowID)
        let error = try #require(throws: SQLiteError.self) { try blob.write(Data([1]), at: 0) }
        #expect(error.code == SQLITE_READONLY)
    }

    @Test func openingAMissingRowFails() throws {
        let error = try #require(throws: SQLiteError.self) {
            _ = try connection.openBlob(table: "files", column: "content", rowID: 404)
        }
        #expect(error.code == SQLITE_ERROR)
        #expect(error.message.contains("no such rowid"))
    }

    @Test func reopenMovesTheHandleToAnotherRow() throws {
        try connection.run("INSERT INTO files(id, content) VALUES (1, ?)", Data([1, 1, 1]))
        try connection.run("INSERT INTO files(id, content) VALUES (2, ?)", Data([2, 2, 2, 2, 2]))
        let blob = try connection.openBlob(table: "files", column: "content", rowID: 1)
        #expect(try blob.read(count: 10, at: 0) == Data([1, 1, 1]))
        try blob.reopen(rowID: 2)
        #expect(blob.count == 5)
        #expect(try blob.read(count: 10, at: 0) == Data([2, 2, 2, 2, 2]))
    }
}
