import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// `albums.forEach` and `albums.write(to:)` hand out what `page()` returns, one album at a time,
/// from one snapshot.
struct AlbumStreamTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// A library of 3,000 albums (about three order-index blocks) whose list order is not the
    /// order of their ids: some inserted in the middle, some moved.
    func shuffledLibrary() throws -> Library {
        let library = try Library.open(at: directory.file("library.sqlite"))
        try library.albums.append(contentsOf: (0..<2_990).map { AlbumDraft(title: "Album \($0)", artist: "Artist \($0 % 7)") })
        for number in 0..<10 { try library.albums.insert(.sample("Inserted \(number)"), at: 500 + number * 211) }
        for number in 0..<10 {
            let album = try library.albums.album(at: 2_900 - number * 97)
            try library.albums.move(id: album.id, to: number * 113)
        }
        return library
    }

    func streamed(_ library: Library, offset: Int, limit: Int) throws -> [(index: Int, album: Album)] {
        var albums: [(index: Int, album: Album)] = []
        try library.albums.forEach(offset: offset, limit: limit) { albums.append(($0, $1)) }
        return albums
    }

    @Test func forEachHandsOutExactlyThePageForAnyOffsetAndLimit() throws {
        let library = try shuffledLibrary()
        let offsets = [0, 1, 511, 1_023, 1_024, 1_025, 2_047, 2_048, 2_999, 3_000, 3_001, 5_000, -3]
        let limits = [0, 1, 2, 100, 1_023, 1_024, 2_000, 3_000, .max, -1]

        for offset in offsets {
            for limit in limits {
                let page = try library.albums.page(offset: offset, limit: limit)
                let stream = try streamed(library, offset: offset, limit: limit)
                #expect(stream.map(\.index) == page.map(\.index), "offset \(offset), limit \(limit)")
                #expect(stream.map(\.album) == page.map(\.album), "offset \(offset), limit \(limit)")
            }
        }
        // And the page is the list: indexes count up from the offset, past block boundaries.
        let whole = try streamed(library, offset: 0, limit: .max)
        #expect(whole.map(\.index) == Array(0..<3_000))
        #expect(try streamed(library, offset: 1_020, limit: 10).map(\.album) == Array(whole[1_020..<1_030].map(\.album)))
    }

    @Test func forEachPastTheEndOrWithNoLimitCallsNothing() throws {
        let library = try shuffledLibrary()
        for (offset, limit) in [(3_000, 10), (10_000, .max), (0, 0), (5, -2)] {
            try library.albums.forEach(offset: offset, limit: limit) { index, _ in
                Issue.record("called for index \(index) with offset \(offset), limit \(limit)")
            }
        }
    }

    @Test func forEachOnAnEmptyLibraryCallsNothing() throws {
        for library in [try Library.open(at: directory.file("empty.sqlite")), try Library.inMemory()] {
            try library.albums.forEach { _, _ in Issue.record("called on an empty library") }
        }
    }

    @Test(arguments: ["csv", "tsv", "json", "ndjson"])
    func writeToALibraryWriterGivesTheBytesOfWritingThePage(format: String) throws {
        let library = try shuffledLibrary()
        // Text every format escapes, and text beyond ASCII.
        let tricky = [#"Hello, "World""#, "Tab\there\nnew\\line\r", "Björk — Homogenic", "坂本龍一", "👩‍👩‍👧‍👦 \u{1}\u{1f}",
                      "", "\"", ","]
        for (number, text) in tricky.enumerated() {
            try library.albums.append(AlbumDraft(title: "T" + text, artist: "A" + text, genre: text.isEmpty ? nil : text,
                                                 year: 1990 + number, coverURL: "https://example.com/\(number).jpg",
                                                 externalID: text.isEmpty ? nil : "x:" + text))
        }
        for (offset, limit) in [(0, Int.max), (2_990, 50), (1_024, 3), (4_000, 5)] {
            let streamed = MemorySink(), paged = MemorySink()
            try library.albums.write(to: Self.writer(format, streamed), offset: offset, limit: limit)
            let writer = Self.writer(format, paged)
            try writer.write(contentsOf: library.albums.page(offset: offset, limit: limit))
            try writer.finish()

            #expect(streamed.bytes == paged.bytes, "\(format), offset \(offset), limit \(limit)")
        }
    }

    /// Values another program may store (the schema allows them) come out of a row as they would
    /// out of an `Album`: invalid UTF-8 repaired, dates before 1970 and past 9999, a number in a
    /// text column.
    @Test(arguments: ["csv", "tsv", "json", "ndjson"])
    func rowsWrittenByAnotherProgramWriteAsTheirAlbumsWould(format: String) throws {
        let library = try Library.open(at: directory.file("odd.sqlite"))
        try library.albums.append(contentsOf: (0..<4).map { AlbumDraft(title: "Album \($0)", artist: "Artist") })
        let outside = try Connection(path: library.path)
        try outside.run("UPDATE albums SET title = CAST(x'41FF42C3' AS TEXT), created_at = -86400001 WHERE id = 1")
        try outside.run("UPDATE albums SET external_id = 12345, updated_at = 253402300800000, genre = ? WHERE id = 2", "é\u{0}x")
        try outside.run("UPDATE albums SET created_at = -62167219200001, updated_at = 9223372036854775807 WHERE id = 3")
        try outside.run("UPDATE albums SET artist = 'Zoë', cover_url = 42.5, created_at = 1, updated_at = -1 WHERE id = 4")

        let streamed = MemorySink(), paged = MemorySink()
        try library.albums.write(to: Self.writer(format, streamed))
        let writer = Self.writer(format, paged)
        try writer.write(contentsOf: library.albums.page())
        try writer.finish()

        #expect(streamed.bytes == paged.bytes)
        // Bytes, not text: making a String of them would repair them anyway.
        #expect(streamed.bytes.contains(Array("A\u{FFFD}B\u{FFFD}".utf8)))
        #expect(!streamed.bytes.contains(0xFF))
        #expect(streamed.text.contains("1969-12-30T23:59:59.999Z"))
        #expect(streamed.text.contains("9999-12-31T23:59:59.999Z"))
        #expect(streamed.text.contains("0000-01-01T00:00:00.000Z"))
    }

    @Test func writeToAWriterOfItsOwnGetsAlbumsWithTheirIndexesThenFinish() throws {
        let library = try shuffledLibrary()
        let writer = CollectingWriter()

        try library.albums.write(to: writer, offset: 1_000, limit: 30)

        #expect(writer.albums.map(\.index) == (1_000..<1_030).map(Optional.some))
        #expect(writer.albums.map(\.album) == (try library.albums.page(offset: 1_000, limit: 30)).map(\.album))
        #expect(writer.finished == 1)
    }

    /// A command from inside would commit unseen by the stream's snapshot, and the closure's
    /// next read would not find it: it is refused at once, and the stream goes on.
    @Test func aCommandFromInsideTheStreamIsRefusedAtOnceAndChangesNothing() throws {
        let library = try shuffledLibrary()
        let first = try library.albums.album(at: 0)
        let history = try library.historyEntries()
        var seen: [Album] = []

        try library.albums.forEach { index, album in
            if index == 0 {
                let delete = try #require(throws: StorageError.self) { try library.albums.delete(id: first.id) }
                #expect(delete.reason == .misuse)
                #expect(delete.message.contains("inside a read's closure"))
                #expect(throws: StorageError.self) { try library.albums.append(.sample("Added while listing")) }
                #expect(throws: StorageError.self) { try library.albums.update(id: first.id) { $0.genre = "Edited" } }
                #expect(try library.albums.count() == 3_000)
            }
            seen.append(album)
        }

        #expect(seen.count == 3_000)
        #expect(try library.albums.album(id: first.id) == first)
        #expect(try library.historyEntries() == history)
    }

    @Test func aNestedStreamReadsTheSameSnapshot() throws {
        let library = try shuffledLibrary()
        var pairs = 0
        try library.albums.forEach(limit: 3) { outerIndex, outer in
            try library.albums.forEach(offset: outerIndex, limit: 1) { innerIndex, inner in
                #expect(innerIndex == outerIndex && inner == outer)
                pairs += 1
            }
        }
        #expect(pairs == 3)
    }

    @Test func aCommandFromInsideTheStreamOfAnInMemoryLibraryThrowsAtOnce() throws {
        let library = try Library.inMemory()
        for draft in AlbumDraft.classics { try library.albums.append(draft) }

        let error = try withDeadline { () -> StorageError? in
            do {
                try library.albums.forEach { _, _ in
                    #expect(try library.albums.count() == 5)   // reads work
                    try library.albums.append(.sample("nested"))
                }
                return nil
            } catch let error as StorageError {
                return error
            }
        }

        #expect(error??.reason == .misuse)
        #expect(try library.titles() == AlbumDraft.classics.map(\.title))
    }

    @Test func aThrowFromTheBodyEndsTheStreamAndLeavesNoReadOpen() throws {
        struct Enough: Error {}
        let library = try shuffledLibrary()
        var calls = 0

        #expect(throws: Enough.self) {
            try library.albums.forEach { index, _ in
                calls += 1
                if index == 9 { throw Enough() }
            }
        }

        #expect(calls == 10)
        // The read transaction is over: a checkpoint can take the whole log back.
        try library.albums.append(.sample("after"))
        let checkpoint = try Connection(path: library.path).query("PRAGMA wal_checkpoint(TRUNCATE)") { try $0[0, as: Int.self] }
        #expect(checkpoint == [0])
    }

    @Test func countFollowsOtherWriters() throws {
        let library = try shuffledLibrary()
        #expect(try library.albums.count() == 3_000)

        try Connection(path: library.path).run("DELETE FROM albums WHERE id <= 10")
        #expect(try library.albums.count() == 2_990)
        _ = try library.albums.album(at: 5)
        try library.albums.append(.sample("one more"))
        #expect(try library.albums.count() == 2_991)
    }

    static func writer(_ format: String, _ sink: MemorySink) -> any AlbumWriter {
        switch format {
        case "csv": CSVWriter(to: sink)
        case "tsv": TSVWriter(to: sink)
        case "json": JSONWriter(to: sink)
        default: NDJSONWriter(to: sink)
        }
    }
}

/// A writer of the app's own: the library hands it `Album` values.
/// `rowWriter(_:)` knows every writer of the library that writes rows directly, and no other.
struct RowWriterTests {
    @Test func theLibrarysWritersWriteRowsDirectlyAndOthersGetAlbums() {
        let sink = MemorySink()
        #expect(rowWriter(CSVWriter(to: sink)) is CSVWriter)
        #expect(rowWriter(TSVWriter(to: sink)) is TSVWriter)
        #expect(rowWriter(JSONWriter(to: sink)) is JSONWriter)
        #expect(rowWriter(NDJSONWriter(to: sink)) is NDJSONWriter)
        #expect(rowWriter(CollectingWriter()) == nil)
    }
}

private final class CollectingWriter: AlbumWriter {
    var albums: [(index: Int?, album: Album)] = []
    var finished = 0

    func write(_ album: Album, index: Int?) throws { albums.append((index, album)) }
    func finish() throws { finished += 1 }
}
