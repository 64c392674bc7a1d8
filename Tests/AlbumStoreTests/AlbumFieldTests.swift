import Testing
@testable import AlbumStore

struct AlbumFieldTests {
    @Test func fieldsComeInTheDocumentedOrder() {
        #expect(AlbumField.allCases.map(\.name) == [
            "index", "id", "title", "artist", "genre", "year", "cover_url", "external_id", "created_at", "updated_at",
        ])
        #expect(AlbumField.stored == Array(AlbumField.allCases.dropFirst()))
        #expect(AlbumField.editable.map(\.name) == ["title", "artist", "genre", "year", "cover_url", "external_id"])
    }

    @Test func headersAndJSONKeysAreTheSnakeCaseNames() {
        for field in AlbumField.allCases {
            #expect(field.header == field.rawValue)
            #expect(field.jsonKey == field.rawValue)
        }
    }

    @Test func everyFieldButIndexHasAColumnAndTheAlbumQueryReadsThemInOrder() {
        #expect(AlbumField.index.column == nil)
        #expect(AlbumField.coverURL.column == "cover_url")
        #expect(Album.columns == "id, title, artist, genre, year, cover_url, external_id, created_at, updated_at")
    }

    @Test func optionNamesAreKebabCase() {
        #expect(AlbumField.editable.map(\.optionName) == ["title", "artist", "genre", "year", "cover-url", "external-id"])
    }

    @Test(arguments: [
        ("cover_url", AlbumField.coverURL), ("Cover URL", .coverURL), ("cover-url", .coverURL), ("coverUrl", .coverURL),
        ("COVERURL", .coverURL), ("cover", .coverURL), ("url", .coverURL), ("cover_image", .coverURL),
        ("external_id", .externalID), ("externalid", .externalID), ("External ID", .externalID),
        ("discogs_id", .externalID), ("release_id", .externalID), ("mbid", .externalID), ("MusicBrainz ID", .externalID),
        ("#", .index), ("Index", .index), ("ID", .id), ("album_id", .id),
        ("Album", .title), ("title", .title), ("Artist", .artist), ("Album Artist", .artist),
        ("Genre", .genre), ("Released", .year), ("Date Added", .createdAt), ("Added", .createdAt),
        ("created_at", .createdAt), ("Last Modified", .updatedAt), ("  year  ", .year),
    ])
    func namesAndAliasesFindTheirFieldIgnoringCaseAndSeparators(name: String, field: AlbumField) {
        #expect(AlbumField(name: name) == field)
    }

    @Test(arguments: ["", "label", "titles", "cover url x", "id2"])
    func otherNamesFindNoField(name: String) {
        #expect(AlbumField(name: name) == nil)
    }

    @Test(arguments: ["Cover URL", "a\tb.c-d_e", "MusicBrainz ID", "#", "", "ÄLBUM Ärtist", "Été-Date", "Straße", "ΑΛΜΠΟΥΜ"])
    func normalizingFoldsAsciiByteByByteAsTheUnicodeFoldWould(name: String) {
        let unicode = String(name.lowercased().unicodeScalars.filter { !" _-.\t".unicodeScalars.contains($0) })
        #expect(AlbumField.normalized(name) == unicode)
    }

    @Test func noTwoFieldsShareAName() {
        var owners: [String: AlbumField] = [:]
        for field in AlbumField.allCases {
            for name in field.names {
                let key = AlbumField.normalized(name)
                #expect(owners[key] == nil || owners[key] == field, "\(name) names both \(owners[key]!) and \(field)")
                owners[key] = field
            }
        }
    }

    @Test func textGivesEachFieldAsCSVWritesIt() {
        let album = Album.sample(genre: nil, year: 1977)

        #expect(AlbumField.allCases.map { $0.text(in: album, index: 4) } == [
            "4", "7", "Low", "David Bowie", nil, "1977", "https://example.com/low.jpg", nil,
            "2026-11-22T01:51:30.123Z", "2026-11-22T01:52:00.000Z",
        ])
        #expect(AlbumField.index.text(in: album) == nil)
    }
}
