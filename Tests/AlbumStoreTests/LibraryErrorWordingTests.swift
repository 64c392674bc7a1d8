import Foundation
import TestSupport
import Testing
@testable import AlbumStore

/// The library's errors speak of the library: an app that links it has no `albumstore` command
/// to offer its users (the CLI adds its own hints where it prints them).
struct LibraryErrorWordingTests {
    private static func queryError(_ parse: () throws -> Void) -> String {
        do { try parse() } catch { return "\(error)" }
        return "no error"
    }

    @Test func anInvalidRowOrBytesThatAreNotUTF8NameNoOption() throws {
        let directory = try TemporaryDirectory()
        let library = try Library.open(at: directory.file("library.sqlite"))
        let latin = Data("title,artist\nHomogenic,Bj\u{F6}rk\n".unicodeScalars.map { UInt8($0.value) })
        #expect {
            try library.importAlbums(from: .data(latin, name: "latin.csv"), options: ImportOptions(encoding: .utf8))
        } throws: { error in
            guard case ImportError.invalidRows(let summary) = error else { return false }
            return "\(error)" == "latin.csv: import refused, nothing changed: 1 invalid row"
                && summary.rejections.map(\.description) == ["latin.csv:2: field 2 is not valid UTF-8"]
        }
    }

    @Test func errorsThatUsedToQuoteACommandNowSayOnlyWhatHappened() throws {
        let messages = [
            SessionError.noSuchSnapshot("x").description,
            SessionError.snapshotExists("x").description,
            SchemaError.newerThanKnown(path: "lib.sqlite", version: 9, known: 8).description,
            Self.queryError { _ = try AlbumQuery(parsing: "artst:bowie") },
            Self.queryError { _ = try AlbumQuery(parsing: "index:3") },
            Self.queryError { _ = try AlbumSort(parsing: "colour") },
            Self.queryError { _ = try AlbumSort(parsing: "year,,artist") },
        ]
        #expect(messages == [
            "no snapshot named \"x\"",
            "a snapshot named \"x\" exists already",
            "lib.sqlite: schema version 9 is newer than this version of AlbumStore knows (8); a newer version opens it",
            "unknown field \"artst\"\nartst:bowie\n^^^^^",
            "a query cannot name the field index\nindex:3\n^^^^^",
            "cannot sort by \"colour\"\ncolour\n^^^^^^",
            "a sort key is empty (fields separated by commas: year:desc,artist)\nyear,,artist\n     ^",
        ])
        #expect(ImportError.conflict(ImportRejection(file: "a.csv", line: 2, field: nil, reason: "a duplicate"), existing: nil)
            .description == "a.csv:2: a duplicate; import refused, nothing changed")
        #expect(messages.allSatisfy { !$0.contains("albumstore ") && !$0.contains("--") })   // the command, its options
    }
}
