import CSQLite
import AlbumSQLite
import Testing
import TestSupport

/// An argument list gives exactly one value per parameter, and a run never sees the bindings of
/// the run before it.
struct ArgumentCountTests {
    let directory: TemporaryDirectory
    let connection: Connection

    init() throws {
        directory = try TemporaryDirectory()
        connection = try directory.open()
        try connection.execute("CREATE TABLE albums(title TEXT, artist TEXT, year INTEGER)")
    }

    private var count: Int? {
        get throws { try connection.scalar("SELECT count(*) FROM albums", as: Int.self) }
    }

    @Test func tooFewPositionalArgumentsThrowRangeNamingBothCounts() throws {
        let sql = "INSERT INTO albums VALUES (?, ?, ?)"
        let error = try #require(throws: SQLiteError.self) { try connection.run(sql, "Low", "David Bowie") }
        #expect(error.code == SQLITE_RANGE)
        #expect(error.message == "statement takes 3 arguments, 2 given")
        #expect(error.sql == sql)
        #expect(try count == 0)
    }

    @Test func tooManyPositionalArgumentsThrowRange() throws {
        let error = try #require(throws: SQLiteError.self) {
            try connection.run("INSERT INTO albums(title) VALUES (?)", "Low", 1977)
        }
        #expect(error.code == SQLITE_RANGE)
        #expect(error.message == "statement takes 1 argument, 2 given")
        #expect(try count == 0)
    }

    @Test func argumentsToAStatementWithoutParametersThrow() throws {
        let error = try #require(throws: SQLiteError.self) { _ = try connection.scalar("SELECT 1", 1, as: Int.self) }
        #expect(error.message == "statement takes 0 arguments, 1 given")
    }

    @Test func queriesCheckTheirArgumentsToo() throws {
        #expect(throws: SQLiteError.self) { _ = try connection.query("SELECT ?, ?", 1) { $0.values } }
        #expect(throws: SQLiteError.self) { _ = try connection.first("SELECT ?", 1, 2) { $0.values } }
        let statement = try connection.prepare("SELECT ?")
        #expect(throws: SQLiteError.self) { try statement.forEach([]) { _ in } }
        #expect(throws: SQLiteError.self) { _ = try statement.map([1, 2]) { $0.values } }
    }

    @Test func aRerunWithFewerArgumentsThrowsInsteadOfReusingTheOldOnes() throws {
        let insert = try connection.prepare("INSERT INTO albums VALUES (?, ?, ?)")
        try insert.run("Low", "David Bowie", 1977)
        #expect(throws: SQLiteError.self) { try insert.run("Heroes", "David Bowie") }
        #expect(try connection.query("SELECT title FROM albums") { try $0[0, as: String.self] } == ["Low"])
    }

    @Test func anArgumentListClearsBindingsMadeByIndex() throws {
        let select = try connection.prepare("SELECT ?1, ?3")  // three parameters, the second unused
        try select.bind("stale", at: 2)
        let values = try select.first([1, nil, 3]) { $0.values }
        #expect(values == [.integer(1), .integer(3)])
        #expect(try select.first(["kept", "x", nil]) { $0.values } == [.text("kept"), .null])
    }

    @Test func aMissingNamedArgumentThrowsNamingTheParameter() throws {
        let sql = "INSERT INTO albums VALUES (:title, :artist, :year)"
        let error = try #require(throws: SQLiteError.self) {
            try connection.run(sql, named: [":title": "Low", ":year": 1977])
        }
        #expect(error.code == SQLITE_RANGE)
        #expect(error.message == "no value for parameter :artist")
        #expect(error.sql == sql)
        #expect(try count == 0)
    }

    @Test func anUnknownNamedArgumentThrows() throws {
        let error = try #require(throws: SQLiteError.self) {
            try connection.run("INSERT INTO albums(title) VALUES (:title)", named: [":title": "Low", ":year": 1977])
        }
        #expect(error.code == SQLITE_RANGE)
        #expect(error.message == "no parameter named :year")
        #expect(try count == 0)
    }

    @Test func aNamedRerunWithAMissingNameThrowsInsteadOfReusingTheOldValue() throws {
        let sql = "INSERT INTO albums(title, year) VALUES (:title, :year)"
        try connection.run(sql, named: [":title": "Low", ":year": 1977])
        #expect(throws: SQLiteError.self) { try connection.run(sql, named: [":title": "Heroes"]) }
        #expect(try connection.query("SELECT title, year FROM albums") { $0.values } == [[.text("Low"), .integer(1977)]])
    }

    @Test func bindingAListWhileTheStatementRunsThrowsMisuse() throws {
        try connection.run("INSERT INTO albums(title) VALUES ('Low'), ('Heroes')")
        let select = try connection.prepare("SELECT title FROM albums WHERE title >= ?")
        try select.bind("A", at: 1)
        #expect(try select.step())
        let error = try #require(throws: SQLiteError.self) { try select.bind(["B"]) }
        #expect(error.code == SQLITE_MISUSE)
        // The running statement still reads the value it was started with.
        #expect(try select.step())
        select.reset()
    }
}
