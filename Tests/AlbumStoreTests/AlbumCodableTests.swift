import Foundation
import Testing
@testable import AlbumStore

/// One JSON shape for every public Codable type, whatever the coder's strategies.
struct AlbumCodableTests {
    static let albums: [Album] = [
        .sample(),
        .sample(id: 8, title: #"Hello, "World" / \ "#, genre: nil, year: nil, coverURL: nil, externalID: "discogs:1",
                createdAt: -1, updatedAt: 0),
    ]

    /// Encoders that differ in every strategy but the output formatting.
    static func encoders() -> [JSONEncoder] {
        let strategies: [(JSONEncoder.DateEncodingStrategy, JSONEncoder.KeyEncodingStrategy)] = [
            (.deferredToDate, .useDefaultKeys),
            (.iso8601, .convertToSnakeCase),
            (.secondsSince1970, .useDefaultKeys),
            (.millisecondsSince1970, .convertToSnakeCase),
            (.formatted(DateFormatter()), .useDefaultKeys),
        ]
        return strategies.map { date, key in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.dateEncodingStrategy = date
            encoder.keyEncodingStrategy = key
            encoder.dataEncodingStrategy = .base64
            return encoder
        }
    }

    static func decoders() -> [JSONDecoder] {
        let strategies: [(JSONDecoder.DateDecodingStrategy, JSONDecoder.KeyDecodingStrategy)] = [
            (.deferredToDate, .useDefaultKeys),
            (.iso8601, .convertFromSnakeCase),
            (.secondsSince1970, .useDefaultKeys),
            (.millisecondsSince1970, .convertFromSnakeCase),
        ]
        return strategies.map { date, key in
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = date
            decoder.keyDecodingStrategy = key
            return decoder
        }
    }

    @Test func everyEncoderStrategyGivesTheSameBytes() throws {
        let outputs = try Self.encoders().map { try $0.encode(Self.albums) }

        #expect(Set(outputs).count == 1)
    }

    @Test func theEncodedObjectHasTheDocumentedKeysNullsAndDateStrings() throws {
        let data = try JSONEncoder().encode(Self.albums[1])

        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == Set(AlbumField.stored.map(\.jsonKey)))
        #expect(object["genre"] is NSNull && object["year"] is NSNull && object["cover_url"] is NSNull)
        #expect(object["external_id"] as? String == "discogs:1")
        #expect(object["created_at"] as? String == "1969-12-31T23:59:59.999Z")
        #expect(object["updated_at"] as? String == "1970-01-01T00:00:00.000Z")
    }

    @Test func sortedKeysGiveTheFieldsInAlphabeticalOrder() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]

        let text = String(decoding: try encoder.encode(Album.sample(externalID: "d:1")), as: UTF8.self)

        #expect(text == """
            {"artist":"David Bowie","cover_url":"https://example.com/low.jpg","created_at":"2026-11-22T01:51:30.123Z",\
            "external_id":"d:1","genre":"Rock","id":7,"title":"Low","updated_at":"2026-11-22T01:52:00.000Z","year":1977}
            """)
    }

    @Test func everyEncoderAndDecoderPairRoundTripsExactly() throws {
        for encoder in Self.encoders() {
            let data = try encoder.encode(Self.albums)
            for decoder in Self.decoders() {
                #expect(try decoder.decode([Album].self, from: data) == Self.albums)
            }
        }
    }

    @Test func whatJSONWriterWritesDecodesToTheSameAlbums() throws {
        let sink = MemorySink()
        let writer = JSONWriter(to: sink)
        for (index, album) in Self.albums.enumerated() { try writer.write(album, index: index) }
        try writer.finish()

        for decoder in Self.decoders() {
            #expect(try decoder.decode([Album].self, from: Data(sink.bytes)) == Self.albums)
        }
    }

    @Test func whatJSONWriterWritesHasTheSameMembersAsTheEncodedAlbum() throws {
        let sink = MemorySink()
        let writer = NDJSONWriter(to: sink)
        try writer.write(Self.albums[1])
        try writer.finish()

        let written = try JSONSerialization.jsonObject(with: Data(sink.bytes)) as? NSDictionary
        let encoded = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(Self.albums[1])) as? NSDictionary
        #expect(written != nil && written == encoded)
    }

    @Test func decodingAcceptsMissingOptionalFieldsAndIgnoresOtherKeys() throws {
        let json = #"{"index":3,"id":1,"title":"Low","artist":"X","created_at":"2026-11-22T01:51:30.123Z","updated_at":"2026-11-22T01:51:30Z","rating":5}"#

        let album = try JSONDecoder().decode(Album.self, from: Data(json.utf8))

        #expect(album == .sample(id: 1, artist: "X", genre: nil, year: nil, coverURL: nil,
                                 createdAt: 1_795_312_290_123, updatedAt: 1_795_312_290_000))
    }

    @Test func decodingABadDateNamesTheKey() throws {
        let json = #"{"id":1,"title":"Low","artist":"X","created_at":1795312290.123,"updated_at":"2026-11-22T01:51:30Z"}"#

        #expect {
            try JSONDecoder().decode(Album.self, from: Data(json.utf8))
        } throws: { error in
            guard case let DecodingError.typeMismatch(_, context) = error else { return false }
            return context.codingPath.last?.stringValue == "created_at"
        }
    }

    @Test func decodingADateInAnotherFormatIsRefusedWithTheExpectedForm() throws {
        let json = #"{"id":1,"title":"Low","artist":"X","created_at":"22/11/2026","updated_at":"2026-11-22T01:51:30Z"}"#

        #expect {
            try JSONDecoder().decode(Album.self, from: Data(json.utf8))
        } throws: { error in
            guard case let DecodingError.dataCorrupted(context) = error else { return false }
            return context.debugDescription.contains("2026-11-22T01:51:30.123Z")
        }
    }

    @Test func decodingWithoutATitleFails() throws {
        let json = #"{"id":1,"artist":"X","created_at":"2026-11-22T01:51:30Z","updated_at":"2026-11-22T01:51:30Z"}"#

        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Album.self, from: Data(json.utf8)) }
    }

    // MARK: The other public Codable types

    private func keys<T: Encodable>(of value: T) throws -> Set<String> {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let object = try JSONSerialization.jsonObject(with: try encoder.encode(value)) as? [String: Any]
        return Set(try #require(object).keys)
    }

    @Test func draftsUseTheSameSnakeCaseKeysAndNulls() throws {
        let draft = AlbumDraft(title: "Low", artist: "X", coverURL: "https://example.com/low.jpg")

        #expect(try keys(of: draft) == ["title", "artist", "genre", "year", "cover_url", "external_id"])
        for encoder in Self.encoders() {
            for decoder in Self.decoders() {
                #expect(try decoder.decode(AlbumDraft.self, from: try encoder.encode(draft)) == draft)
            }
        }
    }

    @Test func changeSetsUseSnakeCaseAndISODates() throws {
        let set = ChangeSet(cursor: 57, transaction: 31, date: Date(millisecondsSince1970: 1_795_312_290_123),
                            tables: ["albums": TableChanges(inserted: RowIDs([12]), deleted: RowIDs([3]))], isOverflow: false)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970

        let text = String(decoding: try encoder.encode(set), as: UTF8.self)

        #expect(text == """
            {"cursor":57,"date":"2026-11-22T01:51:30.123Z","is_overflow":false,\
            "tables":{"albums":{"deleted":[3],"inserted":[12],"updated":[]}},"transaction":31}
            """)
        for decoder in Self.decoders() {
            #expect(try decoder.decode(ChangeSet.self, from: Data(text.utf8)) == set)
        }
    }

    @Test func historyEntriesUseSnakeCaseAndISODates() throws {
        let entry = HistoryEntry(id: 4, description: "add “Low” by X", date: Date(millisecondsSince1970: 0), isUndone: true)

        #expect(try keys(of: entry) == ["id", "date", "is_undone", "description"])
        let data = try JSONEncoder().encode(entry)
        #expect(String(decoding: data, as: UTF8.self).contains(#""date":"1970-01-01T00:00:00.000Z""#))
        for decoder in Self.decoders() {
            #expect(try decoder.decode(HistoryEntry.self, from: data) == entry)
        }
    }

    @Test func libraryInfoUsesSnakeCase() throws {
        let info = LibraryInfo(path: "/tmp/l.sqlite", schemaVersion: 3, sqliteVersion: "3.40.1", albumCount: 5,
                               fileSize: 4096, walSize: 0)

        #expect(try keys(of: info) == ["path", "schema_version", "sqlite_version", "album_count", "file_size", "wal_size"])
        for decoder in Self.decoders() {
            #expect(try decoder.decode(LibraryInfo.self, from: try JSONEncoder().encode(info)) == info)
        }
    }
}
