import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

struct AlbumRepositoryTests {
    let directory: TemporaryDirectory
    let library: Library

    init() throws {
        directory = try TemporaryDirectory()
        library = try Library.open(at: directory.file("library.sqlite"))
        for draft in AlbumDraft.classics { try library.albums.append(draft) }
    }

    @Test func aLongTitleIsCutInMessagesAndHistoryButKeptWhole() throws {
        let title = String(repeating: "👩‍👩‍👧 漢字 ", count: 38) + "end"   // 991 bytes: within the limit
        let album = try library.albums.append(AlbumDraft(title: title, artist: "Björk"))
        try library.albums.delete(id: album.id)
        let description = try #require(try library.historyEntries().last?.description)
        #expect(description == "delete “" + String(repeating: "👩‍👩‍👧 漢字 ", count: 15) + "👩‍👩‍👧 漢字…” by Björk")
        try library.undo()
        #expect(try library.albums.album(id: album.id)?.title == title)
        // Short ones stay whole.
        #expect(try library.albums.album(at: 0).quoted == "“\(AlbumDraft.classics[0].title)” by \(AlbumDraft.classics[0].artist)")
    }

    @Test func appendKeepsTheOrderOfAdding() throws {
        #expect(try library.titles() == AlbumDraft.classics.map(\.title))
        #expect(try library.albums.count() == 5)
    }

    @Test(arguments: [0, 2, 5])
    func insertAtAnIndexPutsTheAlbumThereAndShiftsTheRest(index: Int) throws {
        let album = try library.albums.insert(.sample("New"), at: index)

        var expected = AlbumDraft.classics.map(\.title)
        expected.insert("New", at: index)
        #expect(try library.titles() == expected)
        #expect(try library.albums.index(of: album.id) == index)
        #expect(try library.albums.album(at: index) == album)
    }

    @Test func insertOutOfRangeNamesTheValidRangeAndChangesNothing() throws {
        let before = try library.rows(of: "albums")
        #expect(throws: AlbumError.indexOutOfRange(index: 6, valid: 0...5)) {
            try library.albums.insert(.sample("Nope"), at: 6)
        }
        #expect(throws: AlbumError.indexOutOfRange(index: -7, valid: 0...5)) {
            try library.albums.insert(.sample("Nope"), at: -7)
        }
        #expect(try library.rows(of: "albums") == before)
    }

    @Test func movingForwardAndBackwardLandsAtTheIndex() throws {
        let bowie = try library.albums.album(at: 0)
        try library.albums.move(id: bowie.id, to: 3)
        #expect(try library.titles() == ["It's My Life", "Nothing Like The Sun", "Staring at the Sea", "Best of Bowie", "American Pie"])

        try library.albums.move(id: bowie.id, to: 0)
        #expect(try library.titles() == AlbumDraft.classics.map(\.title))

        let madonna = try library.albums.album(at: 4)
        try library.albums.move(id: madonna.id, to: 1)
        #expect(try library.titles() == ["Best of Bowie", "American Pie", "It's My Life", "Nothing Like The Sun", "Staring at the Sea"])
        try library.albums.move(id: madonna.id, to: 4)
        #expect(try library.titles() == AlbumDraft.classics.map(\.title))
    }

    @Test func moveOutOfRangeIsRefused() throws {
        let album = try library.albums.album(at: 0)
        #expect(throws: AlbumError.indexOutOfRange(index: 5, valid: 0...4)) { try library.albums.move(id: album.id, to: 5) }
        #expect(throws: AlbumError.notFound(id: 999)) { try library.albums.move(id: 999, to: 0) }
    }

    @Test(arguments: [0, 2, 4])
    func deleteAtAnIndexRemovesThatAlbum(index: Int) throws {
        let removed = try library.albums.delete(at: index)

        var expected = AlbumDraft.classics.map(\.title)
        #expect(expected.remove(at: index) == removed.title)
        #expect(try library.titles() == expected)
        #expect(try library.albums.album(id: removed.id) == nil)
    }

    @Test func deleteByIdAndOutOfRangeErrors() throws {
        let sting = try library.albums.album(at: 2)
        #expect(try library.albums.delete(id: sting.id) == sting)
        #expect(throws: AlbumError.notFound(id: sting.id)) { try library.albums.delete(id: sting.id) }
        #expect(throws: AlbumError.indexOutOfRange(index: 4, valid: 0...3)) { try library.albums.delete(at: 4) }
    }

    @Test func emptyLibraryHasNoValidIndex() throws {
        let empty = try Library.inMemory()
        #expect(throws: AlbumError.indexOutOfRange(index: 0, valid: nil)) { try empty.albums.album(at: 0) }
        #expect(try empty.albums.insert(.sample("First"), at: 0).title == "First")
    }

    @Test func updateChangesFieldsAndKeepsTheRest() throws {
        let album = try library.albums.album(at: 3)
        let updated = try library.albums.update(id: album.id) {
            $0.title = "  Standing on a Beach  "
            $0.genre = nil
            $0.externalID = "discogs:12345"
        }
        #expect(updated.title == "Standing on a Beach")
        #expect(updated.genre == nil && updated.year == 1986 && updated.externalID == "discogs:12345")
        #expect(updated.createdAt == album.createdAt && updated.updatedAt >= album.updatedAt)
        #expect(try library.albums.album(id: album.id) == updated)
    }

    @Test(arguments: [
        (AlbumDraft(title: " ", artist: "A"), "title"),
        (AlbumDraft(title: "T", artist: ""), "artist"),
        (AlbumDraft(title: "T", artist: "A", year: 999), "year"),
        (AlbumDraft(title: "T", artist: "A", year: 3000), "year"),
        (AlbumDraft(title: "T", artist: "A", coverURL: "ftp://example.com/c.jpg"), "cover URL"),
        (AlbumDraft(title: "T", artist: "A", coverURL: "not a url"), "cover URL"),
        (AlbumDraft(title: "T", artist: "A", coverURL: "https://"), "cover URL"),
        (AlbumDraft(title: "T", artist: "A", coverURL: "https:/covers.example.com/a.jpg"), "cover URL"),
        (AlbumDraft(title: "T", artist: "A", coverURL: "mailto:covers@example.com"), "cover URL"),
    ])
    func invalidAlbumsAreRefusedAndLeaveNothingBehind(draft: AlbumDraft, field: String) throws {
        let before = try library.rows(of: "albums")
        let history = try library.rows(of: "history")

        #expect { try library.albums.append(draft) } throws: { error in
            guard case AlbumError.invalid(let failing, _) = error else { return false }
            return failing == field
        }
        #expect(throws: AlbumError.self) { try library.albums.insert(draft, at: 1) }
        #expect(try library.rows(of: "albums") == before)
        #expect(try library.rows(of: "history") == history)
    }

    @Test func aMebibyteTitleIsRefusedByEveryWriteAndNothingChanges() throws {
        let huge = String(repeating: "x", count: 1 << 20)
        let refusal = AlbumError.invalid(field: "title", reason: "must be at most 1000 bytes (UTF-8), not \(1 << 20)")
        let before = try library.rows(of: "albums")
        let history = try library.rows(of: "history")

        #expect(throws: refusal) { try library.albums.append(AlbumDraft(title: huge, artist: "A")) }
        #expect(throws: refusal) { try library.albums.insert(AlbumDraft(title: huge, artist: "A"), at: 0) }
        #expect(throws: AlbumError.invalid(field: "album 1: title", reason: "must be at most 1000 bytes (UTF-8), not \(1 << 20)")) {
            try library.albums.append(contentsOf: [.sample("Fine"), AlbumDraft(title: huge, artist: "A")])
        }
        let album = try library.albums.album(at: 0)
        #expect(throws: refusal) { try library.albums.update(id: album.id) { $0.title = huge } }
        #expect(try library.rows(of: "albums") == before)
        #expect(try library.rows(of: "history") == history)
    }

    @Test func acceptedCoverURLsAndYears() throws {
        let nextYear = Calendar(identifier: .gregorian).component(.year, from: Date()) + 1
        try library.albums.append(AlbumDraft(title: "T", artist: "A", year: nextYear, coverURL: "https://covers.example.com/1.jpg"))
        try library.albums.append(AlbumDraft(title: "T", artist: "A", year: 1000, coverURL: "file:///tmp/cover.png"))
        try library.albums.append(AlbumDraft(title: "T", artist: "A", coverURL: "HTTP://Covers.Example.com"))
        #expect(try library.albums.count() == 8)
    }

    @Test func externalIDMustBeUnique() throws {
        let first = try library.albums.append(AlbumDraft(title: "Low", artist: "David Bowie", externalID: "mb:1"))
        let before = try library.rows(of: "albums")

        #expect(throws: AlbumError.duplicateExternalID("mb:1", existing: first.id)) {
            try library.albums.append(AlbumDraft(title: "Heroes", artist: "David Bowie", externalID: "mb:1"))
        }
        let other = try library.albums.album(at: 0)
        #expect(throws: AlbumError.duplicateExternalID("mb:1", existing: first.id)) {
            try library.albums.update(id: other.id) { $0.externalID = "mb:1" }
        }
        #expect(try library.rows(of: "albums") == before)
    }

    @Test func pagesFollowTheListOrderWithIndexes() throws {
        let page = try library.albums.page(offset: 1, limit: 2)
        #expect(page.map(\.index) == [1, 2])
        #expect(page.map(\.album.title) == ["It's My Life", "Nothing Like The Sun"])
        #expect(try library.albums.page(offset: 5).isEmpty)
    }
}
