import CSQLite
import Foundation
import AlbumSQLite
import Testing
import TestSupport

/// Reading the columns of a result row.
struct RowTests {
    let directory: TemporaryDirectory
    let connection: Connection

    init() throws {
        directory = try TemporaryDirectory()
        connection = try directory.open()
        try connection.execute("""
            CREATE TABLE albums(id INTEGER PRIMARY KEY, title TEXT, rating REAL, cover BLOB, notes TEXT);
            INSERT INTO albums(id, title, rating, cover, notes) VALUES (7, 'Heroes', 4.5, x'CAFE', NULL);
            """)
    }

    @Test func readsColumnsByIndex() throws {
        let row = try connection.first("SELECT id, title, rating, cover FROM albums") { row -> (Int, String, Double, Data) in
            (try row[0], try row[1], try row[2], try row[3])
        }
        let (id, title, rating, cover) = try #require(row)
        #expect(id == 7)
        #expect(title == "Heroes")
        #expect(rating == 4.5)
        #expect(cover == Data([0xCA, 0xFE]))
    }

    @Test func withUTF8LendsATextsBytesAndNilForNull() throws {
        let bytes = try connection.first("SELECT title, notes, rating, id, CAST(x'41FF0042' AS TEXT), '' FROM albums") { row in
            (0..<6).map { column in row.withUTF8(at: Int32(column)) { $0.map(Array.init) } }
        }

        #expect(bytes == [Array("Heroes".utf8), nil, Array("4.5".utf8), Array("7".utf8), [0x41, 0xFF, 0x00, 0x42], []])
    }

    @Test func readsColumnsByName() throws {
        let row = try connection.first("SELECT cover, rating, title, id FROM albums") { row -> (Int, String, Double, Data) in
            (try row["id"], try row["title"], try row["rating"], try row["cover"])
        }
        let (id, title, rating, cover) = try #require(row)
        #expect(id == 7)
        #expect(title == "Heroes")
        #expect(rating == 4.5)
        #expect(cover == Data([0xCA, 0xFE]))
    }

    @Test func columnNamesAreCaseInsensitiveAndUseAliases() throws {
        let title = try connection.first("SELECT title AS AlbumTitle FROM albums") { row in
            try row["albumtitle", as: String.self]
        }
        #expect(title == "Heroes")
    }

    @Test func unknownColumnNameThrowsRangeError() throws {
        let error = try #require(throws: SQLiteError.self) {
            _ = try connection.first("SELECT title FROM albums") { row in try row["artist", as: String.self] }
        }
        #expect(error.code == SQLITE_RANGE)
        #expect(error.message.contains("artist"))
    }

    @Test func nullReadAsNonOptionalThrowsMismatch() throws {
        let sql = "SELECT notes FROM albums"
        let error = try #require(throws: SQLiteError.self) {
            _ = try connection.first(sql) { row in try row[0, as: String.self] }
        }
        #expect(error.code == SQLITE_MISMATCH)
        #expect(error.message.contains("notes"))
        #expect(error.sql == sql)
    }

    @Test func nullReadAsOptionalIsNil() throws {
        let notes = try connection.first("SELECT notes FROM albums") { row in try row["notes", as: String?.self] }
        #expect(notes == .some(nil))
    }

    @Test func isNullTellsNullFromEmpty() throws {
        try connection.execute("UPDATE albums SET title = ''")
        let flags = try connection.first("SELECT title, notes FROM albums") { row in (row.isNull(0), row.isNull(1)) }
        #expect(flags?.0 == false)
        #expect(flags?.1 == true)
    }

    @Test func valuesListsEveryColumnWithItsStorageClass() throws {
        let values = try connection.first("SELECT * FROM albums") { row in (row.count, row.values) }
        #expect(values?.0 == 5)
        #expect(values?.1 == [.integer(7), .text("Heroes"), .real(4.5), .blob(Data([0xCA, 0xFE])), .null])
    }

    @Test func queryMapsEveryRowInOrder() throws {
        try connection.execute("INSERT INTO albums(id, title) VALUES (8, 'Low'), (9, 'Lodger')")
        let titles = try connection.query("SELECT title FROM albums WHERE id > ? ORDER BY id", 7) { row in
            try row[0, as: String.self]
        }
        #expect(titles == ["Low", "Lodger"])
    }

    @Test func firstIsNilWhenThereIsNoRow() throws {
        let title = try connection.first("SELECT title FROM albums WHERE id = ?", 999) { row in try row[0, as: String.self] }
        #expect(title == nil)
    }

    @Test
    func outOfRangeColumnIndexThrowsRangeError() throws {
        let error = try #require(throws: SQLiteError.self) {
            _ = try connection.first("SELECT title FROM albums") { row in try row[5, as: String.self] }
        }
        #expect(error.code == SQLITE_RANGE)
    }
}
