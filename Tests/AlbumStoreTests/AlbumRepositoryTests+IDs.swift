import Foundation
import TestSupport
import Testing
@testable import AlbumStore

/// No id is given to two albums: a new album's id is above every id an album ever had, also
/// after the album with the largest id was deleted (SQLite alone would give that id again).
extension AlbumRepositoryTests {
    /// Deletes the album with the largest id and returns that id.
    func deleteTheLastAlbum() throws -> Album.ID {
        let last = try #require(try library.albums.page().map(\.album.id).max())
        try library.albums.delete(id: last)
        return last
    }

    @Test func anAppendedAlbumGetsANewIdAfterTheLastWasDeleted() throws {
        let deleted = try deleteTheLastAlbum()
        #expect(try library.albums.append(.sample("Next")).id == deleted + 1)
    }

    @Test func anInsertedAlbumGetsANewIdAfterTheLastWasDeleted() throws {
        let deleted = try deleteTheLastAlbum()
        #expect(try library.albums.insert(.sample("Next"), at: 0).id == deleted + 1)
    }

    @Test func manyAppendedAlbumsCountUpAboveTheDeletedId() throws {
        let deleted = try deleteTheLastAlbum()
        let ids = try library.albums.append(contentsOf: (0..<100).map { .sample("New \($0)") })
        #expect(Array(ids) == Array((deleted + 1)...(deleted + 100)))
    }

    @Test func anImportCountsUpAboveTheDeletedId() throws {
        let deleted = try deleteTheLastAlbum()
        let csv = "title,artist\n" + (0..<3).map { "Imported \($0),Someone\n" }.joined()
        _ = try library.importAlbums(from: .data(Data(csv.utf8), name: "catalog.csv"))
        let imported = try library.albums.page().map(\.album).filter { $0.title.hasPrefix("Imported") }.map(\.id)
        #expect(imported == [deleted + 1, deleted + 2, deleted + 3])
    }

    @Test func anUndoneAddKeepsItsIdFromTheNextAlbum() throws {
        let added = try library.albums.append(.sample("Added"))
        try library.undo()
        #expect(try library.albums.append(.sample("Other")).id == added.id + 1)
    }

    @Test func anUndoneDeletionBringsTheAlbumBackUnderItsOwnId() throws {
        let deleted = try deleteTheLastAlbum()
        try library.undo()
        #expect(try library.albums.album(id: deleted)?.title == AlbumDraft.classics.last?.title)
        #expect(try library.albums.append(.sample("Next")).id == deleted + 1)
    }

    @Test func aDeletionByAnotherProgramCountsToo() throws {
        let last = try #require(try library.albums.page().map(\.album.id).max())
        try SQLiteShell.run("DELETE FROM albums WHERE id = \(last)", on: library.path)
        #expect(try library.albums.append(.sample("Next")).id == last + 1)
    }

    /// The saved current album is found by id: a new album must not take the deleted one's place.
    @Test func aDeletedCurrentAlbumIsNotFoundInANewOne() throws {
        let last = try #require(try library.albums.page().last?.album)
        try library.session.setCurrentAlbum(id: last.id)
        try library.albums.delete(id: last.id)
        _ = try library.albums.append(.sample("Next"))
        #expect(try library.session.currentAlbum()?.isSavedAlbum == false)
    }
}
