import CSQLite
import Foundation
import AlbumSQLite
import Testing
import TestSupport

/// `ChangeRecorder` and `Changeset`: recording changes with the session extension, inverting
/// them, applying them with conflicts aborting, and reading them back change by change.
struct ChangesetTests {
    /// One change as `forEach` reports it, with the row's key, for comparing sets of changes.
    private struct Summary: Hashable {
        var table: String
        var operation: RowChange.Operation
        var key: SQLiteValue?
    }

    /// Every value a change carries, read while `forEach` runs.
    private struct Values: Equatable {
        var table: String
        var operation: RowChange.Operation
        var old: [SQLiteValue?]
        var new: [SQLiteValue?]
    }

    let directory: TemporaryDirectory
    let connection: Connection

    init() throws {
        directory = try TemporaryDirectory()
        connection = try directory.open()
        try connection.execute("""
            CREATE TABLE albums(id INTEGER PRIMARY KEY, title TEXT NOT NULL, artist TEXT, year INTEGER, rating REAL, cover BLOB);
            CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT);
            CREATE TABLE log(message TEXT);
            """)
        try connection.run("INSERT INTO albums VALUES (1, 'Low', 'David Bowie', 1977, 4.5, x'00ff10')")
        try connection.run("INSERT INTO albums VALUES (2, 'Heroes', 'David Bowie', 1977, NULL, NULL)")
        try connection.run("INSERT INTO albums VALUES (3, 'Ágætis byrjun', 'Sigur Rós', 1999, 5.0, x'')")
    }

    /// Every row of `table` with every column, in key order.
    private func rows(_ table: String = "albums") throws -> [[SQLiteValue]] {
        try connection.query("SELECT * FROM \(table) ORDER BY rowid") { $0.values }
    }

    /// Runs `body` with a recorder on `tables` and returns what it recorded.
    private func record(_ tables: [String] = ["albums"], _ body: () throws -> Void) throws -> Changeset {
        let recorder = try ChangeRecorder(connection: connection, tables: tables)
        try body()
        return try recorder.changeset()
    }

    private func summaries(_ changeset: Changeset) throws -> Set<Summary> {
        var result: Set<Summary> = []
        try changeset.forEach { change in
            let key = change.operation == .insert ? change.new(0) : change.old(0)
            result.insert(Summary(table: change.table, operation: change.operation, key: key))
        }
        return result
    }

    @Test func recorderCapturesInsertUpdateDeleteOnAttachedTableAndIgnoresOthers() throws {
        let changeset = try record(["albums"]) {
            try connection.run("INSERT INTO albums(id, title) VALUES (4, 'Kid A')")
            try connection.run("UPDATE albums SET title = 'Low (remaster)' WHERE id = 1")
            try connection.run("DELETE FROM albums WHERE id = 2")
            try connection.run("INSERT INTO notes VALUES (1, 'not recorded')")
            try connection.run("UPDATE notes SET text = 'still not recorded' WHERE id = 1")
        }
        #expect(!changeset.isEmpty)
        #expect(try summaries(changeset) == [
            Summary(table: "albums", operation: .insert, key: .integer(4)),
            Summary(table: "albums", operation: .update, key: .integer(1)),
            Summary(table: "albums", operation: .delete, key: .integer(2)),
        ])
    }

    @Test func insertThenDeleteOfTheSameRowGivesAnEmptyChangeset() throws {
        let changeset = try record {
            try connection.run("INSERT INTO albums(id, title) VALUES (4, 'Kid A')")
            try connection.run("UPDATE albums SET title = 'Amnesiac' WHERE id = 4")
            try connection.run("DELETE FROM albums WHERE id = 4")
        }
        #expect(changeset.isEmpty)
        #expect(changeset.data.isEmpty)
        var calls = 0
        try changeset.forEach { _ in calls += 1 }
        #expect(calls == 0)
    }

    @Test func invertedUndoesExactlyAndTheOriginalRedoes() throws {
        try connection.run("INSERT INTO notes VALUES (1, 'untouched')")
        let before = try rows()
        let changeset = try record {
            try connection.transaction {
                try connection.run("INSERT INTO albums VALUES (4, 'Kid A', 'Radiohead', 2000, 4.0, x'cafe')")
                try connection.run("INSERT INTO albums(id, title) VALUES (5, 'Untitled')")
                try connection.run("UPDATE albums SET title = 'Low', artist = NULL, rating = 3.25 WHERE id = 1")
                try connection.run("UPDATE albums SET cover = x'0102', year = 1978 WHERE id = 2")
                try connection.run("UPDATE albums SET title = 'Heroes' WHERE id = 2")  // merged with the one above
                try connection.run("DELETE FROM albums WHERE id = 3")
                try connection.run("UPDATE albums SET id = 30 WHERE id = 5")  // a key change: delete + insert
            }
        }
        let after = try rows()
        #expect(after != before)

        try changeset.inverted().apply(to: connection)
        #expect(try rows() == before)
        #expect(!connection.isInTransaction)

        try changeset.apply(to: connection)
        #expect(try rows() == after)
        #expect(try rows("notes") == [[.integer(1), .text("untouched")]])

        // And it is on disk: another connection sees the redone state.
        let other = try directory.open()
        #expect(try other.query("SELECT * FROM albums ORDER BY id") { $0.values } == after)
    }

    @Test func forEachReportsTableOperationAndOldAndNewValues() throws {
        let changeset = try record {
            try connection.run("INSERT INTO albums VALUES (4, 'Kid A', 'Radiohead', 2000, 4.0, x'cafe')")
            try connection.run("UPDATE albums SET title = 'Low (1991)', rating = NULL WHERE id = 1")
            try connection.run("DELETE FROM albums WHERE id = 2")
        }
        var changes: [RowChange.Operation: Values] = [:]
        try changeset.forEach { change in
            // Columns 0...5, and one past the end, which has no value.
            changes[change.operation] = Values(
                table: change.table, operation: change.operation,
                old: (0...6).map { change.old($0) }, new: (0...6).map { change.new($0) })
        }
        #expect(changes.count == 3)
        #expect(changes[.insert] == Values(
            table: "albums", operation: .insert,
            old: [nil, nil, nil, nil, nil, nil, nil],
            new: [.integer(4), .text("Kid A"), .text("Radiohead"), .integer(2000), .real(4.0), .blob(Data([0xca, 0xfe])), nil]))
        // An update carries new values only for the columns it changed (a NULL is a value);
        // its old record carries the primary key and the changed columns.
        #expect(changes[.update] == Values(
            table: "albums", operation: .update,
            old: [.integer(1), .text("Low"), nil, nil, .real(4.5), nil, nil],
            new: [nil, .text("Low (1991)"), nil, nil, .null, nil, nil]))
        #expect(changes[.delete] == Values(
            table: "albums", operation: .delete,
            old: [.integer(2), .text("Heroes"), .text("David Bowie"), .integer(1977), .null, .null, nil],
            new: [nil, nil, nil, nil, nil, nil, nil]))
    }

    @Test func applyAbortsWhenTheTargetRowChangedMeanwhileAndChangesNothing() throws {
        for id in 4...20 { try connection.run("INSERT INTO albums(id, title) VALUES (?, ?)", id, "Album \(id)") }
        let changeset = try record {
            try connection.run("UPDATE albums SET title = title || ' (deluxe)'")
        }
        // Another edit of one row after the recorded work: undoing the work must not clobber it.
        try connection.run("UPDATE albums SET title = 'Edited meanwhile' WHERE id = 12")
        let before = try rows()
        var applied = 0
        connection.onUpdate { _ in applied += 1 }

        let error = try #require(throws: SQLiteError.self) { try changeset.inverted().apply(to: connection) }
        connection.onUpdate(nil)
        #expect(applied > 0)  // some rows were undone before the conflict: the rollback matters
        #expect(error.code == SQLITE_ABORT)
        #expect(error.extendedCode == SQLITE_ABORT)
        #expect(error.message == "cannot apply change to albums: the row changed since")
        // The rows undone before the conflict were rolled back with it.
        #expect(try rows() == before)
        #expect(!connection.isInTransaction)
    }

    @Test func applyThrowsWhenTheTargetRowNoLongerExists() throws {
        let changeset = try record {
            try connection.run("UPDATE albums SET title = 'Low (1991)' WHERE id = 1")
            try connection.run("UPDATE albums SET year = 1978 WHERE id = 2")
        }
        try connection.run("DELETE FROM albums WHERE id = 1")
        let before = try rows()

        let error = try #require(throws: SQLiteError.self) { try changeset.inverted().apply(to: connection) }
        #expect(error.extendedCode == SQLITE_ABORT)
        #expect(error.message == "cannot apply change to albums: the row no longer exists")
        #expect(try rows() == before)
        #expect(!connection.isInTransaction)
    }

    @Test func emptyChangesetInvertsToItselfAndAppliesAsANoOp() throws {
        let changeset = try record {}
        #expect(changeset.isEmpty)
        #expect(changeset == Changeset(data: Data()))
        let inverted = try changeset.inverted()
        #expect(inverted.isEmpty)
        #expect(inverted == changeset)

        let before = try rows()
        let totalChanges = connection.totalChanges
        try changeset.apply(to: connection)
        try inverted.apply(to: connection)
        #expect(try rows() == before)
        #expect(connection.totalChanges == totalChanges)
        #expect(!connection.isInTransaction)
    }

    @Test func tableWithoutPrimaryKeyIsNotRecorded() throws {
        let changeset = try record(["log"]) {
            try connection.run("INSERT INTO log VALUES ('one')")
            try connection.run("INSERT INTO log VALUES ('two')")
            try connection.run("UPDATE log SET message = 'uno' WHERE message = 'one'")
            try connection.run("DELETE FROM log WHERE message = 'two'")
        }
        #expect(changeset.isEmpty)
        #expect(try rows("log") == [[.text("uno")]])
    }

    // MARK: Bugs found while writing these tests

    @Test
    func forEachReadsASmallChangeset() throws {
        try connection.execute("CREATE TABLE tags(name TEXT PRIMARY KEY)")
        let changeset = try record(["tags"]) { try connection.run("INSERT INTO tags VALUES ('')") }
        #expect(changeset.data.count <= 14)
        var changes: [Summary] = []
        try changeset.forEach { changes.append(Summary(table: $0.table, operation: $0.operation, key: $0.new(0))) }
        #expect(changes == [Summary(table: "tags", operation: .insert, key: .text(""))])
    }

    @Test
    func forEachThrowsOnATruncatedChangeset() throws {
        let changeset = try record {
            for id in 4...8 { try connection.run("INSERT INTO albums(id, title) VALUES (?, ?)", id, "Album \(id)") }
        }
        let truncated = Changeset(data: Data(changeset.data.dropLast(3)))
        var calls = 0
        let error = try #require(throws: SQLiteError.self) { try truncated.forEach { _ in calls += 1 } }
        #expect(error.code == SQLITE_CORRUPT)
        #expect(calls < 5)
    }

    @Test
    func applyingATruncatedChangesetThrowsCorruptAndChangesNothing() throws {
        let changeset = try record {
            for id in 4...8 { try connection.run("INSERT INTO albums(id, title) VALUES (?, ?)", id, "Album \(id)") }
        }
        try changeset.inverted().apply(to: connection)
        let before = try rows()
        let truncated = Changeset(data: Data(changeset.data.dropLast(3)))
        let error = try #require(throws: SQLiteError.self) { try truncated.apply(to: connection) }
        #expect(error.code == SQLITE_CORRUPT)
        #expect(error.message != "not an error")
        #expect(try rows() == before)
    }

    @Test
    func recorderKeepsItsConnectionOpen() throws {
        let recorder: ChangeRecorder
        do {
            let connection = try directory.open()
            recorder = try ChangeRecorder(connection: connection, tables: ["albums"])
            try connection.run("DELETE FROM albums WHERE id = 1")
        }
        #expect(try summaries(recorder.changeset()) == [Summary(table: "albums", operation: .delete, key: .integer(1))])
    }
}
