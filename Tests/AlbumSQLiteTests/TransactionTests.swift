import CSQLite
import AlbumSQLite
import Testing
import TestSupport

/// `Connection.transaction`: commit on return, rollback on throw, savepoints when nested.
struct TransactionTests {
    private struct Boom: Error, Equatable {}

    let directory: TemporaryDirectory
    let connection: Connection

    init() throws {
        directory = try TemporaryDirectory()
        connection = try directory.open()
        try connection.execute("CREATE TABLE t(name TEXT UNIQUE)")
    }

    private func names() throws -> [String] {
        try connection.query("SELECT name FROM t ORDER BY rowid") { try $0[0, as: String.self] }
    }

    @Test func commitsWhenBodyReturns() throws {
        let result = try connection.transaction {
            try connection.run("INSERT INTO t VALUES ('a')")
            try connection.run("INSERT INTO t VALUES ('b')")
            return 42
        }
        #expect(result == 42)
        #expect(!connection.isInTransaction)
        // Another connection sees the rows only if they were committed.
        let other = try directory.open()
        #expect(try other.query("SELECT name FROM t ORDER BY rowid") { try $0[0, as: String.self] } == ["a", "b"])
    }

    @Test func throwInsideRollsBackEverythingAndRethrows() throws {
        try connection.run("INSERT INTO t VALUES ('before')")
        #expect(throws: Boom()) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES ('a')")
                try connection.run("UPDATE t SET name = 'changed' WHERE name = 'before'")
                try connection.run("INSERT INTO t VALUES ('b')")
                throw Boom()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try names() == ["before"])
    }

    @Test func failingStatementInsideRollsBackEarlierWork() throws {
        let error = try #require(throws: SQLiteError.self) {
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES ('a')")
                try connection.run("INSERT INTO t VALUES ('a')")
            }
        }
        #expect(error.extendedCode == 2067)
        #expect(!connection.isInTransaction)
        #expect(try names() == [])
    }

    @Test func isInTransactionOnlyInsideTheBody() throws {
        #expect(!connection.isInTransaction)
        let inside = try connection.transaction { connection.isInTransaction }
        #expect(inside)
        #expect(!connection.isInTransaction)
    }

    @Test func throwInNestedTransactionRollsBackOnlyItsPart() throws {
        try connection.transaction {
            try connection.run("INSERT INTO t VALUES ('outer 1')")
            #expect(throws: Boom()) {
                try connection.transaction {
                    try connection.run("INSERT INTO t VALUES ('inner')")
                    try connection.run("DELETE FROM t WHERE name = 'outer 1'")
                    throw Boom()
                }
            }
            #expect(connection.isInTransaction)
            try connection.run("INSERT INTO t VALUES ('outer 2')")
        }
        #expect(!connection.isInTransaction)
        #expect(try names() == ["outer 1", "outer 2"])
    }

    @Test func nestedTransactionsThatReturnCommitWithTheOuter() throws {
        try connection.transaction {
            try connection.run("INSERT INTO t VALUES ('outer')")
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES ('inner')")
                try connection.transaction { try connection.run("INSERT INTO t VALUES ('innermost')") }
            }
        }
        #expect(try names() == ["outer", "inner", "innermost"])
    }

    @Test func throwInOuterUndoesCompletedNestedTransactions() throws {
        #expect(throws: Boom()) {
            try connection.transaction {
                try connection.transaction { try connection.run("INSERT INTO t VALUES ('inner')") }
                throw Boom()
            }
        }
        #expect(try names() == [])
    }

    @Test func throwTwoLevelsDeepKeepsTheMiddleLevel() throws {
        try connection.transaction {
            try connection.run("INSERT INTO t VALUES ('1')")
            try connection.transaction {
                try connection.run("INSERT INTO t VALUES ('2')")
                _ = try? connection.transaction {
                    try connection.run("INSERT INTO t VALUES ('3')")
                    throw Boom()
                }
                try connection.run("INSERT INTO t VALUES ('4')")
            }
        }
        #expect(try names() == ["1", "2", "4"])
    }

    @Test func readTransactionSeesOneSnapshot() throws {
        try connection.run("INSERT INTO t VALUES ('a')")
        let writer = try directory.open()
        let counts = try connection.read {
            let before = try connection.scalar("SELECT count(*) FROM t", as: Int.self)
            try writer.run("INSERT INTO t VALUES ('b')")
            let after = try connection.scalar("SELECT count(*) FROM t", as: Int.self)
            return (before, after)
        }
        #expect(counts.0 == 1)
        #expect(counts.1 == 1)
        #expect(try connection.scalar("SELECT count(*) FROM t", as: Int.self) == 2)
    }
}
