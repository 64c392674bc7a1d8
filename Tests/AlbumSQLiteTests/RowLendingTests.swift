import CSQLite
import AlbumSQLite
import Testing
import TestSupport

/// Rows are lent to closures for the call only; one read after its statement moved on traps.
struct RowLendingTests {
    /// What a row read after its statement moved on prints before the process stops.
    static let staleRowMessage = "a Row was used after its statement moved on: copy the values inside the closure"

    let directory: TemporaryDirectory
    let connection: Connection

    init() throws {
        directory = try TemporaryDirectory()
        connection = try directory.open()
        try connection.execute("""
            CREATE TABLE albums(id INTEGER PRIMARY KEY, title TEXT);
            INSERT INTO albums VALUES (1, 'Low'), (2, 'Heroes'), (3, 'Lodger');
            """)
    }

    @Test func forEachLendsEveryRowInOrderWithTheCurrentBindings() throws {
        let statement = try connection.prepare("SELECT title FROM albums WHERE id >= ? ORDER BY id")
        try statement.bind(2, at: 1)
        var titles: [String] = []
        try statement.forEach { row in titles.append(try row[0]) }
        #expect(titles == ["Heroes", "Lodger"])
    }

    @Test func forEachStartsFromTheFirstRowAfterAManualStep() throws {
        let statement = try connection.prepare("SELECT id FROM albums ORDER BY id")
        #expect(try statement.step())
        #expect(try statement.map { try $0[0, as: Int.self] } == [1, 2, 3])
    }

    @Test func firstLendsTheFirstRowOrGivesNil() throws {
        let statement = try connection.prepare("SELECT title FROM albums WHERE id = ?")
        #expect(try statement.first([2]) { try $0[0, as: String.self] } == "Heroes")
        #expect(try statement.first([9]) { try $0[0, as: String.self] } == nil)
    }

    @Test func withCurrentRowLendsTheRowAManualStepStoppedOn() throws {
        let statement = try connection.prepare("SELECT title FROM albums ORDER BY id")
        #expect(try statement.step())
        #expect(try statement.step())
        #expect(try statement.withCurrentRow { try $0[0, as: String.self] } == "Heroes")
    }

    @Test func valuesAreAnOwnedCopyThatOutlivesTheStatement() throws {
        let copies = try connection.prepare("SELECT id, title FROM albums ORDER BY id").map { $0.values }
        #expect(copies == [[.integer(1), .text("Low")], [.integer(2), .text("Heroes")], [.integer(3), .text("Lodger")]])
    }

    @Test func aNestedQueryOfTheSameSQLLeavesTheOuterLoopAlone() throws {
        let sql = "SELECT id FROM albums WHERE id >= ? ORDER BY id"
        var pairs: [[Int]] = []
        // The inner query would reset the cached statement the outer one is iterating; it gets a
        // statement of its own instead.
        try connection.cachedStatement(sql).forEach([1]) { row in
            let id: Int = try row[0]
            pairs.append(try connection.query(sql, id) { try $0[0, as: Int.self] })
            #expect(try row[0, as: Int.self] == id)
        }
        #expect(pairs == [[1, 2, 3], [2, 3], [3]])
    }

    @Test func aNestedRunOfOneStatementThrowsMisuse() throws {
        let statement = try connection.prepare("SELECT id FROM albums")
        var rows = 0
        let error = try #require(throws: SQLiteError.self) {
            try statement.forEach { _ in
                rows += 1
                try statement.forEach { _ in }
            }
        }
        #expect(error.code == SQLITE_MISUSE)
        #expect(rows == 1)
        // The statement is usable again afterwards.
        #expect(try statement.map { try $0[0, as: Int.self] }.count == 3)
    }

    @Test func aRowReadAfterItsStatementSteppedTraps() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            // The child traps, so no deinit would remove a directory: the database is in memory.
            let connection = try Connection(path: ":memory:")
            let statement = try connection.prepare("SELECT 1 UNION ALL SELECT 2")
            try statement.forEach { row in
                _ = try statement.step()
                _ = try row[0, as: Int.self]
            }
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains(Self.staleRowMessage))
    }

    @Test func aRowReadAfterItsStatementWasResetTraps() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            // The child traps, so no deinit would remove a directory: the database is in memory.
            let connection = try Connection(path: ":memory:")
            let statement = try connection.prepare("SELECT 'Low'")
            _ = try statement.first { row in
                statement.reset()
                return try row[0, as: String.self]
            }
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains(Self.staleRowMessage))
    }

    @Test func aRowLentByWithCurrentRowTrapsAfterTheNextStep() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            // The child traps, so no deinit would remove a directory: the database is in memory.
            let connection = try Connection(path: ":memory:")
            let statement = try connection.prepare("SELECT 1 UNION ALL SELECT 2")
            _ = try statement.step()
            try statement.withCurrentRow { row in
                _ = try statement.step()
                _ = row.isNull(0)
            }
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains(Self.staleRowMessage))
    }
}
