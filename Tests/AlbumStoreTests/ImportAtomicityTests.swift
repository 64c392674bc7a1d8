import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// Invalid rows, dry runs and unreadable files: what changes, and what is reported.
struct ImportAtomicityTests {
    let directory: TemporaryDirectory
    var url: URL { directory.file("library.sqlite") }

    init() throws { directory = try TemporaryDirectory() }

    let csv = """
        title,artist,year,cover_url
        Low,David Bowie,1977,
        ,Nobody,2001,
        Heroes,David Bowie,3001,
        Lodger,David Bowie,,ftp://example.com/x
        "Scary Monsters",David Bowie,1980,

        """

    private func library() throws -> Library {
        let library = try Library.open(at: url)
        try library.albums.append(AlbumDraft(title: "Homogenic", artist: "Björk"))
        return library
    }

    @Test func anInvalidRowRefusesTheFileListingEveryErrorAndLeavesTheFileByteIdentical() throws {
        let library = try library()
        let before = try fileBytes(url)
        let rejects = directory.file("rejects.csv").path
        #expect {
            try library.importText(csv, options: ImportOptions(rejectsPath: rejects))
        } throws: { error in
            guard case ImportError.invalidRows(let summary) = error else { return false }
            return summary.rejected == 3 && summary.rejections.map(\.line) == [3, 4, 5]
                && summary.rejections.map(\.field) == ["title", "year", "cover_url"]
        }
        #expect(try fileBytes(url) == before)
        #expect(try library.allAlbums().count == 1 && library.historyEntries().count == 1)
        let lines = try String(contentsOfFile: rejects, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4 && lines[0] == "file,line,field,reason,record")
        #expect(lines[1] == #"albums.csv,3,title,must not be empty,"{""artist"":""Nobody"",""year"":""2001""}""#)
    }

    @Test(arguments: [0, 1, 2, 3, 4])
    func aValuePastItsLengthLimitRejectsTheRowNamingItsLineAndColumn(column: Int) throws {
        let library = try library()
        let before = try fileBytes(url)
        let columns = ["album", "band", "genres", "cover", "mbid"]
        var values = ["Low", "David Bowie", "Rock", "https://covers.example.com/low.jpg", "mb-1"]
        let limit = column == 3 ? AlbumDraft.maximumCoverURLBytes : AlbumDraft.maximumTextBytes
        values[column] = column == 3 ? "https://x/" + String(repeating: "a", count: limit - 9) : String(repeating: "a", count: limit + 1)
        let csv = columns.joined(separator: ",") + "\nHeroes,David Bowie,Rock,,\n" + values.joined(separator: ",") + "\n"

        #expect {
            try library.importText(csv)
        } throws: { error in
            guard case ImportError.invalidRows(let summary) = error else { return false }
            return summary.rejections == [ImportRejection(
                file: "albums.csv", line: 3, field: columns[column], reason: "must be at most \(limit) bytes (UTF-8), not \(limit + 1)")]
        }
        #expect(try fileBytes(url) == before)
    }

    @Test func theFirstTwentyRejectionsAreCarriedAndAllCounted() throws {
        let library = try library()
        let rows = (0..<50).map { "Title \($0),,\n" }.joined()
        #expect {
            try library.importText("title,artist,year\n" + rows)
        } throws: { error in
            guard case ImportError.invalidRows(let summary) = error else { return false }
            return summary.rejected == 50 && summary.rejections.count == 20 && summary.rejections.last?.line == 21
        }
    }

    @Test func skipInvalidImportsTheValidRowsAndWritesTheOthersToTheRejectsFile() throws {
        let library = try library()
        let rejects = directory.file("rejects.csv").path
        let summary = try library.importText(csv, options: ImportOptions(invalidRows: .skip, rejectsPath: rejects))
        #expect(summary.inserted == 2 && summary.rejected == 3)
        #expect(try library.allAlbums().map(\.title) == ["Homogenic", "Low", "Scary Monsters"])
        let text = try String(contentsOfFile: rejects, encoding: .utf8)
        #expect(text.contains("albums.csv,4,year,3001 is not between 1000 and"))
        #expect(text.contains("albums.csv,5,cover_url,ftp://example.com/x is not an http(s) or file URL"))
    }

    @Test func aDryRunCountsEverythingAndWritesNothing() throws {
        let library = try library()
        let before = try fileBytes(url)
        let summary = try library.importText(
            "title,artist\nLow,David Bowie\nlow,DAVID BOWIE\nHomogenic,Björk\n", options: ImportOptions(dryRun: true))
        #expect(summary.dryRun && summary.inserted == 1 && summary.skippedDuplicates == 2 && summary.duplicatesWithinFile == 1)
        #expect(try fileBytes(url) == before)
        #expect(try library.allAlbums().count == 1 && library.historyEntries().count == 1)
    }

    @Test func aRecordTheReaderCouldNotReadIsARejectedRowWithItsLine() throws {
        let library = try library()
        let summary = try library.importText(
            "title,artist\nLow,David Bowie\nHeroes,David Bowie,extra\n", options: ImportOptions(invalidRows: .skip))
        #expect(summary.inserted == 1 && summary.rejected == 1 && summary.rejections.first?.line == 3)
        #expect(summary.rejections.first?.field == nil)
    }

    @Test func aMissingFileIsUnreadableAndChangesNothing() throws {
        let library = try library()
        #expect {
            try library.importAlbums(from: .file(directory.file("missing.csv").path))
        } throws: { error in
            guard case ImportError.unreadable(_, _, let reason) = error else { return false }
            return reason.contains("No such file")
        }
    }

    @Test func progressIsReportedWithBytesAgainstTheSize() throws {
        let library = try library()
        let rows = (0..<10_000).map { "Title \($0),Artist\n" }.joined()
        let data = Data(("title,artist\n" + rows).utf8)
        let seen = Locked<[ImportProgress]>([])
        _ = try library.importAlbums(from: .data(data, name: "big.csv"), options: ImportOptions(progress: { progress in
            seen.withLock { $0.append(progress) }
        }))
        let reports = seen.withLock { $0 }
        #expect(reports.count >= 3)
        #expect(reports.last == ImportProgress(rows: 10_000, bytesRead: data.count, totalBytes: data.count))
    }
}

/// A value behind a lock, for a `@Sendable` closure to fill.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
