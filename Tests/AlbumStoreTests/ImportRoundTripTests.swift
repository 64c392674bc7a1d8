import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// Export then import into an empty library gives the same albums; an import is one change set.
struct ImportRoundTripTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    private static let tricky: [AlbumDraft] = [
        AlbumDraft(title: #"Hello, "World""#, artist: "Quote \"Me\", Please", genre: "Rock, Pop", year: 1977),
        AlbumDraft(title: "Line\nbreak\r\nand CR", artist: "Tab\tbed", genre: "back\\slash"),
        AlbumDraft(title: "Emoji 🎸👩‍👩‍👧‍👦🇮🇸", artist: "Björk Guðmundsdóttir", coverURL: "https://covers.example.com/a,b.jpg"),
        AlbumDraft(title: String(repeating: "Long title ", count: 90) + "end", artist: "Patient", externalID: "discogs:007"),
        AlbumDraft(title: "  Spaces kept inside  ", artist: "x", year: 2001),
    ]

    @Test(arguments: ["csv", "tsv", "json", "ndjson"])
    func exportThenImportIntoAnEmptyLibraryGivesTheSameAlbumsInOrder(format: String) throws {
        let source = try Library.open(at: directory.file("source.sqlite"))
        for draft in Self.tricky { try source.albums.append(draft) }
        try source.albums.move(id: 1, to: -1)
        let sink = MemorySink()
        switch format {
        case "csv": try source.albums.write(to: CSVWriter(to: sink))
        case "tsv": try source.albums.write(to: TSVWriter(to: sink))
        case "json": try source.albums.write(to: JSONWriter(to: sink))
        default: try source.albums.write(to: NDJSONWriter(to: sink))
        }
        let target = try Library.open(at: directory.file("target.sqlite"))
        let summary = try target.importAlbums(from: .data(Data(sink.bytes), name: "export.\(format)"))
        #expect(summary.inserted == Self.tricky.count && summary.ignoredColumns.isEmpty)
        let expected = try source.allAlbums(), actual = try target.allAlbums()
        #expect(actual.count == expected.count)
        for (got, want) in zip(actual, expected) {
            #expect(got.draft == want.draft)
            #expect(got.createdAt == want.createdAt && got.updatedAt == want.updatedAt)
        }
    }

    @Test func anImportIsOneChangeSetWithRangesAndUpdates() async throws {
        let library = try Library.open(at: directory.file("library.sqlite"))
        let low = try library.albums.append(AlbumDraft(title: "Low", artist: "David Bowie"))
        var changes = library.changes.makeAsyncIterator()
        let rows = (0..<300).map { "Title \($0),Artist,\n" }.joined()
        try library.importText("title,artist,genre\nLow,David Bowie,Rock\n" + rows, options: ImportOptions(onConflict: .update))
        let sets = changes.drain()
        #expect(sets.count == 1)
        let albums = try #require(sets.first?.albums)
        #expect(albums.inserted == RowIDs((low.id + 1)...(low.id + 300)))
        #expect(albums.updated == RowIDs([low.id]))
        #expect(albums.deleted.isEmpty)
    }
}
