@testable import AlbumSQLite
import CSQLite
import FoundationEssentials
import FuzzDriver

/// The differential target: `ChangeRecorder` against SQLite's session extension on the work
/// the input describes (`Work`). What "agree" means, checked in this order:
///
/// 1. The same statements on two copies of the same database give the same result codes and
///    the same rows (the work itself is deterministic).
/// 2. The recorder's changeset and the session's hold the same changes: equal as multisets of
///    (table, primary-key flags, operation, indirect flag, old values, new values), values
///    compared exactly (text and blobs by their bytes, reals by their bits) but for one thing:
///    in a column of REAL affinity an integer is the REAL of the same value (`Schema.realColumns`),
///    and the tables in the same order. (A session lists a table's rows in its hash order, so
///    not row by row.) Whole numbers are kept out of the REAL key (`Work`): there SQLite 3.40.1's
///    session extension records one row as two. Not compared when recording was turned off and
///    a savepoint was rolled back: a session takes a row it first meets after recording came
///    back on as it was then, and keeps that after a rollback undid the row, where the recorder
///    goes back to what it held at the savepoint (a row inserted while off, replaced while on,
///    then rolled back away: the session reports it deleted, the recorder nothing).
/// 3. When recording was never turned off: applying the recorder's changeset (`Changeset.apply`,
///    the library's applier) to a copy of the database as it was before the work gives the
///    database after it, and so does the session's changeset through `sqlite3changeset_apply`;
///    applying the recorder's changeset inverted (`Changeset.inverted`) to a copy of the after
///    database gives the before one. The copies have no trigger, so nothing is done twice.
///    Rows with a NULL in their primary key are left out of these comparisons: SQLite lets a
///    rowid table hold them, and sessions never record them.
///
/// A disagreement stops the run with both sides and the work that led to it.
@c(LLVMFuzzerTestOneInput)
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let work = Work(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    Comparison.shared.run(work)
    return 0
}

/// The databases, opened once and emptied before each run (opening them costs more than a run).
final class Comparison {
    nonisolated(unsafe) static let shared = Comparison()

    let ours: Connection
    let theirs: Connection
    /// Copies the changesets are applied to.
    let copies: [Connection]
    /// The same connections for the comparison's own statements.
    let oursDatabase: Database, theirsDatabase: Database, copyDatabases: [Database]
    /// The session's connection again, with statements of its own for the recorded steps. A
    /// `DELETE FROM t` prepared while no pre-update hook is set truncates the table without
    /// calling the hook (SQLite decides that when it prepares), so a statement prepared for the
    /// set-up must not be reused while recording. Ours are prepared while the recorder runs.
    let theirsRecording: Database

    private init() {
        do {
            ours = try Connection(path: ":memory:")
            theirs = try Connection(path: ":memory:")
            copies = try (0..<3).map { _ in try Connection(path: ":memory:") }
        } catch {
            fatalError("cannot open the databases: \(error)")
        }
        (oursDatabase, theirsDatabase) = (Database(handle: ours.handle), Database(handle: theirs.handle))
        theirsRecording = Database(handle: theirs.handle)
        copyDatabases = copies.map { Database(handle: $0.handle) }
        for database in [oursDatabase, theirsDatabase] { database.execute(Schema.tables + Schema.trigger) }
        for copy in copyDatabases { copy.execute(Schema.tables) }
    }

    func run(_ work: Work) {
        let (ours, theirs) = (oursDatabase, theirsDatabase)
        // The steps run so far, described only for a failure: describing every step of every
        // run cost more than running it.
        var (setUpDone, stepsDone) = (0, 0)
        func fail(_ reason: String) -> Never {
            let log = work.setUp.prefix(setUpDone).map { "before recording: \($0)" } + work.steps.prefix(stepsDone).map { "\($0)" }
            fatalError("ChangeRecorder and the session extension disagree: \(reason)\nwork:\n" + log.joined(separator: "\n"))
        }
        for database in [ours, theirs] {
            database.reset()
            for sql in Schema.rows { database.mustRun(sql) }
        }
        for step in work.setUp {
            setUpDone += 1
            guard case .sql(let sql, let values) = step else { continue }
            guard ours.run(sql, values) == theirs.run(sql, values) else { fail("\(sql) gave different results") }
        }
        let before = ours.contents(Schema.keyed)

        let session = Session(self.theirs.handle)
        let recorded: [UInt8]
        let comparable: Bool
        do {
            let recorder = try ChangeRecorder(connection: self.ours, tables: Schema.names)
            var savepoints = Savepoints()
            var rolledBack = false
            for step in work.steps {
                stepsDone += 1
                switch step {
                case .sql(let sql, let values):
                    let (mine, reference) = (runOurs(sql, values, &savepoints), theirsRecording.run(sql, values))
                    guard mine == reference else { fail("\(sql) gave \(mine) here, \(reference) there") }
                    if mine == SQLITE_DONE && sql.hasPrefix("ROLLBACK") { rolledBack = true }
                case .record(let on):
                    recorder.isEnabled = on
                    session.enable(on)
                }
            }
            recorder.isEnabled = true
            recorded = [UInt8](try recorder.changeset().data)
            comparable = session.wasAlwaysEnabled || !rolledBack
        } catch {
            fail("the recorder failed: \(error)")
        }
        let expected = session.changeset()
        let after = ours.contents(Schema.names)
        guard after == theirs.contents(Schema.names) else { fail("the same work left different rows") }
        guard comparable else { return }

        guard let mine = Change.all(in: recorded)?.map(Self.normalized) else { fail("SQLite cannot read the recorder's changeset \(recorded)") }
        guard let reference = Change.all(in: expected)?.map(Self.normalized) else { fail("SQLite cannot read the session's changeset") }
        if counts(mine) != counts(reference) || tableOrder(mine) != tableOrder(reference) {
            fail("the changesets differ\nrecorder:\n" + mine.map(\.description).joined(separator: "\n")
                 + "\nsession:\n" + reference.map(\.description).joined(separator: "\n"))
        }
        guard session.wasAlwaysEnabled else { return }

        let afterKeyed = ours.contents(Schema.keyed, keyedOnly: true)
        let beforeKeyed = Self.keyedOnly(before)
        let applied = copyDatabases[0]
        applied.load(before)
        do { try Changeset(data: Data(recorded)).apply(to: copies[0]) } catch { fail("the recorder's changeset does not apply to the before state: \(error)") }
        guard applied.contents(Schema.keyed, keyedOnly: true) == afterKeyed else { fail("the recorder's changeset applied to the before state does not give the after state") }

        let reapplied = copyDatabases[1]
        reapplied.load(before)
        let code = apply(expected, to: copies[1].handle)
        guard code == SQLITE_OK else { fail("the session's changeset does not apply to the before state: \(code)") }
        guard reapplied.contents(Schema.keyed, keyedOnly: true) == afterKeyed else { fail("the session's changeset applied to the before state does not give the after state") }

        let undone = copyDatabases[2]
        undone.load(ours.contents(Schema.keyed))
        do { try Changeset(data: Data(recorded)).inverted().apply(to: copies[2]) } catch { fail("the recorder's changeset inverted does not apply to the after state: \(error)") }
        guard undone.contents(Schema.keyed, keyedOnly: true) == beforeKeyed else { fail("the recorder's changeset inverted does not give the before state") }
    }

    /// Runs a step on our side the way the library does: through `Statement`, which follows a
    /// failing statement's rollback, with the recorders' marks taken and rolled back as
    /// `Connection.savepoint` does for SQL savepoints. The result code, as `Database.run` gives it.
    private func runOurs(_ sql: String, _ values: [Value], _ savepoints: inout Savepoints) -> Int32 {
        do throws(SQLiteError) {
            let statement = try ours.cachedStatement(sql)
            for (index, value) in values.enumerated() { value.bind(to: statement.handle, at: Int32(index + 1)) }
            try statement.run()
        } catch {
            return error.extendedCode
        }
        savepoints.follow(sql, on: ours.database)
        return SQLITE_DONE
    }

    /// The SQL savepoints open on our side, innermost last, each with the recorders' mark.
    struct Savepoints {
        private var open: [(name: Substring, mark: RecordingMark?)] = []

        /// Takes, rolls back or releases marks as `sql` (which succeeded) did its savepoint.
        mutating func follow(_ sql: String, on database: ConnectionHandle) {
            let words = sql.split(separator: " ")
            guard let name = words.last else { return }
            switch words.first {
            case "SAVEPOINT":
                open.append((name, database.markRecordings()))
            case "RELEASE", "ROLLBACK":
                // Both end the savepoints inside the named one; RELEASE ends it too.
                guard let index = open.lastIndex(where: { $0.name == name }) else { return }
                let isRelease = words.first == "RELEASE"
                if !isRelease { database.rollBackRecordings(to: open[index].mark) }
                for savepoint in open[(isRelease ? index : index + 1)...].reversed() { database.releaseRecordings(savepoint.mark) }
                open.removeSubrange((isRelease ? index : index + 1)...)
            default:
                return
            }
        }
    }

    /// `change` with the integers of its REAL columns made REALs.
    private static func normalized(_ change: Change) -> Change {
        var change = change
        for column in Schema.realColumns[change.table] ?? [] {
            for side in [\Change.old, \Change.new] where column < change[keyPath: side].count {
                if case .integer(let value) = change[keyPath: side][column] { change[keyPath: side][column] = .real(Double(value)) }
            }
        }
        return change
    }

    private func counts(_ changes: [Change]) -> [Change: Int] {
        changes.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    private func tableOrder(_ changes: [Change]) -> [String] {
        changes.map(\.table).reduce(into: []) { order, table in if order.last != table { order.append(table) } }
    }

    private static func keyedOnly(_ contents: [[[Value]]]) -> [[[Value]]] {
        // The key columns of t1...t4, by position.
        let keys: [[Int]] = [[0], [0], [0, 1], [0]]
        return zip(contents, keys).map { rows, key in rows.filter { row in key.allSatisfy { row[$0] != .null } } }
    }

    /// `sqlite3changeset_apply`, aborting at the first conflict.
    private func apply(_ changeset: [UInt8], to database: OpaquePointer) -> Int32 {
        if changeset.isEmpty { return SQLITE_OK }
        var bytes = changeset
        return bytes.withUnsafeMutableBytes { buffer in
            sqlite3changeset_apply(database, Int32(buffer.count), buffer.baseAddress, nil, { _, _, _ in SQLITE_CHANGESET_ABORT }, nil)
        }
    }
}

@main
enum Main {
    static func main() { runFuzzer(fuzz) }
}
