import CSQLite
import AlbumSQLite
import Testing
import TestSupport

/// Parameters written `:name`, `@name` or `$name` bound by name.
struct NamedParameterTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    private func openAlbums() throws -> Connection {
        let connection = try directory.open()
        try connection.execute("CREATE TABLE albums(title TEXT, year INTEGER)")
        return connection
    }

    @Test(arguments: [":", "@", "$"])
    func runBindsNamedParametersWithPrefix(prefix: String) throws {
        let connection = try openAlbums()
        try connection.run(
            "INSERT INTO albums(title, year) VALUES (\(prefix)title, \(prefix)year)",
            named: ["\(prefix)year": 1977, "\(prefix)title": "Low"])
        let row = try connection.first("SELECT title, year FROM albums") { row -> (String, Int) in
            (try row[0], try row[1])
        }
        #expect(row?.0 == "Low")
        #expect(row?.1 == 1977)
    }

    @Test(arguments: [":", "@", "$"])
    func statementBindsOneValueByNameWithPrefix(prefix: String) throws {
        let connection = try openAlbums()
        let insert = try connection.prepare("INSERT INTO albums(title, year) VALUES (\(prefix)title, 1979)")
        try insert.bind("Lodger", named: "\(prefix)title")
        try insert.run()
        #expect(try connection.scalar("SELECT title FROM albums WHERE year = 1979", as: String.self) == "Lodger")
    }

    @Test func sameNameUsedTwiceIsOneParameter() throws {
        let connection = try openAlbums()
        let insert = try connection.prepare("INSERT INTO albums(title, year) VALUES (:v, :v)")
        #expect(insert.parameterCount == 1)
        try insert.bind(1980, named: ":v")
        try insert.run()
        #expect(try connection.scalar("SELECT count(*) FROM albums WHERE title = '1980' AND year = 1980", as: Int.self) == 1)
    }

    @Test func nilNamedArgumentBindsNull() throws {
        let connection = try openAlbums()
        try connection.run("INSERT INTO albums(title, year) VALUES (:title, :year)", named: [":title": "Untitled", ":year": nil])
        #expect(try connection.scalar("SELECT typeof(year) FROM albums", as: String.self) == "null")
    }

    @Test func unknownParameterNameThrowsRangeError() throws {
        let connection = try openAlbums()
        let sql = "INSERT INTO albums(title, year) VALUES (:title, :year)"
        let error = try #require(throws: SQLiteError.self) {
            try connection.run(sql, named: [":title": "Low", ":yaer": 1977])
        }
        #expect(error.code == SQLITE_RANGE)
        #expect(error.message.contains(":yaer"))
        #expect(error.sql == sql)
        #expect(try connection.scalar("SELECT count(*) FROM albums", as: Int.self) == 0)
    }

    @Test func nameWithoutItsPrefixIsUnknown() throws {
        let connection = try openAlbums()
        let insert = try connection.prepare("INSERT INTO albums(title) VALUES (:title)")
        let error = try #require(throws: SQLiteError.self) { try insert.bind("Low", named: "title") }
        #expect(error.code == SQLITE_RANGE)
    }
}
