import Foundation
import Testing
@testable import AlbumStore

/// A negative index counts from the end of the list, as in Python: -1 is the last album.
struct NegativeIndexTests {
    let library: Library

    init() throws {
        library = try Library.inMemory()
        for draft in AlbumDraft.classics { try library.albums.append(draft) }
    }

    @Test func albumAtMinusOneIsTheLastAndMinusCountTheFirst() throws {
        #expect(try library.albums.album(at: -1).title == "American Pie")
        #expect(try library.albums.album(at: -5).title == "Best of Bowie")
    }

    @Test func insertAtMinusOneAppendsAndAtMinusTwoGoesBeforeTheLast() throws {
        let last = try library.albums.insert(.sample("Last"), at: -1)
        let beforeLast = try library.albums.insert(.sample("Before last"), at: -2)

        #expect(try library.albums.index(of: last.id) == 6)
        #expect(try library.albums.index(of: beforeLast.id) == 5)
        #expect(try library.titles().suffix(2) == ["Before last", "Last"])
    }

    @Test func insertAtMinusCountPlusOneGoesToTheFront() throws {
        let first = try library.albums.insert(.sample("First"), at: -6)
        #expect(try library.albums.index(of: first.id) == 0)
    }

    @Test func moveToMinusOneMakesTheAlbumTheLast() throws {
        let bowie = try library.albums.album(at: 0)
        try library.albums.move(id: bowie.id, to: -1)

        #expect(try library.albums.index(of: bowie.id) == 4)
        #expect(try library.historyEntries().last?.description == "move \(bowie.quoted) from #0 to #4")
    }

    @Test func deleteAtMinusOneDeletesTheLast() throws {
        let removed = try library.albums.delete(at: -1)
        #expect(removed.title == "American Pie")
        #expect(try library.albums.count() == 4)
    }

    @Test func anIndexBeforeTheStartNamesBothRanges() throws {
        let error = #expect(throws: AlbumError.self) { try library.albums.delete(at: -6) }
        #expect(error == .indexOutOfRange(index: -6, valid: 0...4))
        #expect(error?.description == "index -6 is out of range: valid indexes are 0...4, or -5...-1 counting from the end")
    }
}
