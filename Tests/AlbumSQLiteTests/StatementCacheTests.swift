import AlbumSQLite
import Testing
import TestSupport

/// `Connection.cachedStatement` and the cached helpers built on it.
struct StatementCacheTests {
    let directory: TemporaryDirectory
    let connection: Connection

    init() throws {
        directory = try TemporaryDirectory()
        connection = try directory.open()
        try connection.execute("CREATE TABLE t(x)")
    }

    @Test func sameSQLReturnsTheSameStatement() throws {
        let first = try connection.cachedStatement("SELECT x FROM t WHERE x = ?")
        let second = try connection.cachedStatement("SELECT x FROM t WHERE x = ?")
        #expect(first === second)
    }

    @Test func theSameTextAtAnotherAddressOrOtherTextAtTheSameAddressFindsItsOwnStatement() throws {
        // Strings built at run time (past 15 bytes, so not stored inline): freed and made again,
        // they may land at an address another text had.
        for round in 0..<200 {
            let number = round % 3
            let sql = String(repeating: " ", count: round % 2) + "SELECT \(number) AS value_of_the_statement"
            let value = try connection.cachedStatement(sql).first([]) { try $0[0, as: Int.self] }
            #expect(value == number)
        }
        let first = try connection.cachedStatement(String(repeating: "SELECT 1 AS one; ", count: 1))
        let again = try connection.cachedStatement(String(repeating: "SELECT 1 AS one; ", count: 1))
        #expect(first === again)
    }

    @Test func differentSQLReturnsDifferentStatements() throws {
        let first = try connection.cachedStatement("SELECT x FROM t")
        let second = try connection.cachedStatement("SELECT x FROM t ")
        #expect(first !== second)
    }

    @Test func prepareAlwaysReturnsANewStatement() throws {
        let first = try connection.prepare("SELECT x FROM t")
        let second = try connection.prepare("SELECT x FROM t")
        #expect(first !== second)
    }

    @Test func reusedStatementHasItsBindingsCleared() throws {
        let statement = try connection.cachedStatement("SELECT ?1")
        try statement.bind(5, at: 1)
        #expect(try statement.step())
        #expect(try statement.withCurrentRow { try $0[0, as: Int?.self] } == 5)

        let reused = try connection.cachedStatement("SELECT ?1")
        #expect(try reused.step())
        #expect(reused.withCurrentRow { $0.isNull(0) })
    }

    @Test func reusedStatementStartsOverAfterBeingLeftMidway() throws {
        try connection.execute("INSERT INTO t VALUES (1), (2), (3)")
        let statement = try connection.cachedStatement("SELECT x FROM t ORDER BY x")
        #expect(try statement.step())
        #expect(try statement.step())
        #expect(try statement.withCurrentRow { try $0[0, as: Int.self] } == 2)

        let reused = try connection.cachedStatement("SELECT x FROM t ORDER BY x")
        #expect(try reused.step())
        #expect(try reused.withCurrentRow { try $0[0, as: Int.self] } == 1)
    }

    @Test func runReusesOneStatementForEveryCall() throws {
        let sql = "INSERT INTO t(x) VALUES (?)"
        for value in 1...100 { try connection.run(sql, value) }
        #expect(try connection.scalar("SELECT count(*) FROM t", as: Int.self) == 100)
        #expect(try connection.scalar("SELECT sum(x) FROM t", as: Int.self) == 5050)
        #expect(try connection.cachedStatement(sql) === connection.cachedStatement(sql))
    }

    @Test func cachedQueryRunsAgainWithNewArguments() throws {
        try connection.execute("INSERT INTO t VALUES (1), (2), (3)")
        let sql = "SELECT x FROM t WHERE x >= ? ORDER BY x"
        #expect(try connection.query(sql, 2) { try $0[0, as: Int.self] } == [2, 3])
        #expect(try connection.query(sql, 1) { try $0[0, as: Int.self] } == [1, 2, 3])
        #expect(try connection.query(sql, 4) { try $0[0, as: Int.self] } == [])
    }

    @Test func statementRunBindsAndResetsForTheNextRun() throws {
        let insert = try connection.prepare("INSERT INTO t(x) VALUES (?)")
        try insert.run(10)
        try insert.run(20)
        #expect(try connection.query("SELECT x FROM t ORDER BY x") { try $0[0, as: Int.self] } == [10, 20])
    }
}
