import Foundation
import Testing

struct EditTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test func editChangesOnlyTheGivenFieldsAndPrintsTheAlbum() throws {
        let album = try store.add("Low", by: "David Bowie", "--genre", "Rock", "--year", "1977", "--external-id", "d:1")

        let result = try store.run("edit", String(album.id), "--year", "1978", "--format", "json")

        #expect(result.status == 0)
        let printed = try #require(try decodeJSON([PrintedAlbum].self, from: result.stdout).first)
        #expect(printed.year == 1978)
        #expect(printed.title == "Low")
        #expect(printed.artist == "David Bowie")
        #expect(printed.genre == "Rock")
        #expect(printed.externalID == "d:1")
        #expect(printed.createdAt == album.createdAt)
        #expect(printed.updatedAt >= album.updatedAt)
        #expect(try store.album(id: album.id) == printed)
    }

    @Test func editKeepsTheAlbumsPlaceInTheList() throws {
        let albums = try store.add(titles: ["A", "B", "C"])

        let result = try store.run("edit", String(albums[1].id), "--title", "Bee", "--format", "json")

        #expect(try decodeJSON([PrintedAlbum].self, from: result.stdout).first?.index == 1)
        #expect(try store.titles() == ["A", "Bee", "C"])
    }

    @Test(arguments: [
        ("--genre", "Rock"), ("--year", "1977"), ("--cover-url", "https://example.com/c.jpg"), ("--external-id", "d:1"),
    ])
    func editWithAnEmptyValueClearsTheField(option: String, value: String) throws {
        let album = try store.add("Low", option, value)

        let result = try store.run("edit", String(album.id), option, "")

        #expect(result.status == 0)
        let edited = try store.album(id: album.id)
        let field: String? = switch option {
        case "--genre": edited.genre
        case "--year": edited.year.map(String.init)
        case "--cover-url": edited.coverURL
        default: edited.externalID
        }
        #expect(field == nil)
        #expect(edited.title == "Low")
    }

    @Test func editKeepingItsOwnExternalIDIsNotADuplicate() throws {
        let album = try store.add("Low", "--external-id", "d:1")

        let result = try store.run("edit", String(album.id), "--title", "Heroes", "--external-id", "d:1")

        #expect(result.status == 0)
        #expect(try store.album(id: album.id).title == "Heroes")
    }

    @Test func editToAnExternalIDAnotherAlbumHasIsRefusedAndChangesNothing() throws {
        let first = try store.add("Low", "--external-id", "d:1")
        let second = try store.add("Heroes", "--external-id", "d:2")
        let before = try store.snapshot()

        let result = try store.run("edit", String(second.id), "--external-id", "d:1")

        expectRefused(result, saying: "external id: d:1 already belongs to album \(first.id)")
        #expect(try store.snapshot() == before)
    }

    @Test(arguments: [
        (["--year", "999"], "year: 999 is not between 1000 and \(nextYear)"),
        (["--title", ""], "title: must not be empty"),
        (["--title", "  "], "title: must not be empty"),
        (["--artist", ""], "artist: must not be empty"),
        (["--cover-url", "mailto:someone@example.com"], "cover URL: mailto:someone@example.com is not an http(s) or file URL"),
        (["--genre", "Pop", "--year", "10000"], "year: 10000 is not between 1000 and \(nextYear)"),
    ])
    func editToAnInvalidValueIsRefusedWithOneLineAndChangesNothing(field: [String], message: String) throws {
        let album = try store.add("Low", by: "David Bowie", "--genre", "Rock", "--year", "1977")
        let before = try store.snapshot()

        let result = try store.run(["edit", String(album.id)] + field)

        expectRefused(result, saying: message)
        #expect(try store.snapshot() == before)
    }

    @Test func editOfAnUnknownIDIsRefused() throws {
        try store.add("Low")
        let before = try store.snapshot()

        let result = try store.run("edit", "42", "--title", "Heroes")

        expectRefused(result, saying: "no album with id 42")
        #expect(try store.snapshot() == before)
    }

    @Test func editWithoutAnyFieldIsAUsageError() throws {
        let album = try store.add("Low")
        let before = try store.snapshot()

        let result = try store.run("edit", String(album.id))

        expectUsageError(result, saying: "Give at least one field to change, e.g. --title.")
        #expect(try store.snapshot() == before)
    }

    @Test func editThatChangesNothingRecordsNoHistory() throws {
        let album = try store.add("Low", "--genre", "Rock")
        let before = try store.snapshot()

        let result = try store.run("edit", String(album.id), "--genre", " Rock ")

        #expect(result.status == 0)
        #expect(try store.snapshot() == before)
    }
}
