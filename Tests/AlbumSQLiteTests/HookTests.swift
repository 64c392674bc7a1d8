import CSQLite
import AlbumSQLite
import Testing
import TestSupport

/// The update, commit and rollback hooks.
struct HookTests {
    private struct Boom: Error, Equatable {}

    /// Collects row changes from the update hook, publishes them when the transaction commits
    /// and discards them when it rolls back: the pattern change notification is built on.
    private final class ChangeCollector {
        private var pending: [RowChange] = []
        private(set) var published: [[RowChange]] = []

        init(connection: Connection) {
            connection.onUpdate { self.pending.append($0) }
            connection.onCommit {
                if !self.pending.isEmpty { self.published.append(self.pending) }
                self.pending = []
                return true
            }
            connection.onRollback { self.pending = [] }
        }
    }

    /// Counts calls, for hooks that report nothing else.
    private final class Counter {
        var value = 0
    }

    let directory: TemporaryDirectory
    let connection: Connection

    init() throws {
        directory = try TemporaryDirectory()
        connection = try directory.open()
        try connection.execute("CREATE TABLE albums(id INTEGER PRIMARY KEY, title TEXT); CREATE TABLE tracks(title TEXT)")
    }

    private func count(_ table: String) throws -> Int? {
        try connection.scalar("SELECT count(*) FROM \(table)", as: Int.self)
    }

    @Test func updateHookReportsInsertUpdateAndDeleteWithTableAndRowID() throws {
        var changes: [RowChange] = []
        connection.onUpdate { changes.append($0) }
        try connection.run("INSERT INTO albums(id, title) VALUES (10, 'Low')")
        try connection.run("INSERT INTO tracks(title) VALUES ('Warszawa')")
        try connection.run("UPDATE albums SET title = 'Heroes' WHERE id = 10")
        try connection.run("DELETE FROM albums WHERE id = 10")
        #expect(changes == [
            RowChange(operation: .insert, table: "albums", rowID: 10),
            RowChange(operation: .insert, table: "tracks", rowID: 1),
            RowChange(operation: .update, table: "albums", rowID: 10),
            RowChange(operation: .delete, table: "albums", rowID: 10),
        ])
    }

    @Test func removedUpdateHookIsNotCalled() throws {
        var changes: [RowChange] = []
        connection.onUpdate { changes.append($0) }
        try connection.run("INSERT INTO albums(id) VALUES (1)")
        connection.onUpdate(nil)
        try connection.run("INSERT INTO albums(id) VALUES (2)")
        #expect(changes == [RowChange(operation: .insert, table: "albums", rowID: 1)])
    }

    @Test func commitHookFiresOnceOnCommit() throws {
        let commits = Counter()
        connection.onCommit { commits.value += 1; return true }
        try connection.transaction {
            try connection.run("INSERT INTO albums(title) VALUES ('a')")
            try connection.run("INSERT INTO albums(title) VALUES ('b')")
            #expect(commits.value == 0)
        }
        #expect(commits.value == 1)
        #expect(try count("albums") == 2)
    }

    @Test func commitHookReturningFalseTurnsCommitIntoRollback() throws {
        let rollbacks = Counter()
        connection.onCommit { false }
        connection.onRollback { rollbacks.value += 1 }
        let error = try #require(throws: SQLiteError.self) {
            try connection.transaction {
                try connection.run("INSERT INTO albums(title) VALUES ('a')")
            }
        }
        #expect(error.code == SQLITE_CONSTRAINT)
        #expect(error.extendedCode == 531)  // SQLITE_CONSTRAINT_COMMITHOOK
        #expect(rollbacks.value == 1)
        #expect(!connection.isInTransaction)
        connection.onCommit(nil)
        #expect(try count("albums") == 0)
        let other = try directory.open()
        #expect(try other.scalar("SELECT count(*) FROM albums", as: Int.self) == 0)
    }

    @Test func commitHookReturningFalseRollsBackAnAutocommitStatement() throws {
        connection.onCommit { false }
        let error = try #require(throws: SQLiteError.self) {
            try connection.run("INSERT INTO albums(title) VALUES ('a')")
        }
        #expect(error.extendedCode == 531)
        connection.onCommit(nil)
        #expect(try count("albums") == 0)
    }

    @Test func rollbackHookFiresOnRollback() throws {
        let rollbacks = Counter()
        connection.onRollback { rollbacks.value += 1 }
        #expect(throws: Boom()) {
            try connection.transaction {
                try connection.run("INSERT INTO albums(title) VALUES ('a')")
                throw Boom()
            }
        }
        #expect(rollbacks.value == 1)
    }

    @Test func rollbackHookDoesNotFireOnCommit() throws {
        let rollbacks = Counter()
        connection.onRollback { rollbacks.value += 1 }
        try connection.transaction { try connection.run("INSERT INTO albums(title) VALUES ('a')") }
        #expect(rollbacks.value == 0)
    }

    @Test func rollbackHookDoesNotFireWhenOnlyASavepointRollsBack() throws {
        let rollbacks = Counter()
        connection.onRollback { rollbacks.value += 1 }
        try connection.transaction {
            _ = try? connection.transaction {
                try connection.run("INSERT INTO albums(title) VALUES ('a')")
                throw Boom()
            }
        }
        #expect(rollbacks.value == 0)
    }

    @Test func collectorReportsOnlyCommittedChanges() throws {
        let collector = ChangeCollector(connection: connection)
        try connection.transaction {
            try connection.run("INSERT INTO albums(id, title) VALUES (1, 'Low')")
            try connection.run("INSERT INTO albums(id, title) VALUES (2, 'Heroes')")
        }
        #expect(throws: Boom()) {
            try connection.transaction {
                try connection.run("INSERT INTO albums(id, title) VALUES (3, 'Lodger')")
                try connection.run("DELETE FROM albums WHERE id = 1")
                throw Boom()
            }
        }
        try connection.run("UPDATE albums SET title = 'Low (2017)' WHERE id = 1")
        #expect(collector.published == [
            [RowChange(operation: .insert, table: "albums", rowID: 1), RowChange(operation: .insert, table: "albums", rowID: 2)],
            [RowChange(operation: .update, table: "albums", rowID: 1)],
        ])
    }
}
