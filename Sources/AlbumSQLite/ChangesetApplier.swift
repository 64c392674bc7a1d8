import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Applies a changeset with the connection's own cached statements: the fast path of
/// `Changeset.apply(to:)`, which backs out to the session extension's `sqlite3changeset_apply`
/// whenever a change does not go through as recorded.
///
/// Why not always `sqlite3changeset_apply`: it runs `PRAGMA defer_foreign_keys` twice, and a
/// flag pragma expires every prepared statement of the connection, so after each undo every
/// cached statement is compiled again on its next step (about a third of the instructions of a
/// list command on a 1,000,000-album library, measured with callgrind). It also prepares its
/// own INSERT, DELETE, UPDATE and SELECT statements, and reads `PRAGMA table_info`, on every
/// call.
///
/// The checks are the session extension's (`sqlite3session.c`): an insert gives every column; a
/// delete must find the row by its key with every other column equal (`IS`) to the recorded old
/// value; an update must find it with each recorded old value equal, and sets the recorded new
/// values. An update sets only the changed columns, as later versions of the session extension
/// do (3.40's sets every column, to itself where unchanged, which also fires `UPDATE OF`
/// triggers of the unchanged ones). Each must change exactly one row. Anything else (no
/// row, a constraint failing, a foreign key refused, a table whose columns differ from the
/// changeset's, a malformed changeset) rolls this attempt back and hands the changeset to
/// `sqlite3changeset_apply`, which reports the conflict exactly as before, or applies it where
/// deferring the checks lets it through (it defers foreign keys and retries constraint
/// failures at the end). So what is applied, or the error, is always what the session extension
/// gives; only the common case is faster.
struct ChangesetApplier {
    let connection: Connection

    /// Applies `bytes` inside a savepoint; `false` when it backed out (nothing changed then).
    func apply(_ bytes: UnsafeRawBufferPointer) throws(SQLiteError) -> Bool {
        guard let layouts = connection.tableLayouts() else { return false }
        try connection.cachedStatement("SAVEPOINT albumstore_changeset").run()
        // A recorder on this connection must forget the changes of an attempt that backs out.
        let mark = connection.database.markRecordings()
        defer { connection.database.releaseRecordings(mark) }
        if applyChanges(bytes, layouts: layouts) {
            do {
                try connection.cachedStatement("RELEASE albumstore_changeset").run()
                return true
            } catch {
                rollBack(to: mark)
                throw error
            }
        }
        rollBack(to: mark)
        return false
    }

    private func rollBack(to mark: RecordingMark?) {
        if (try? connection.cachedStatement("ROLLBACK TO albumstore_changeset").run()) != nil {
            connection.database.rollBackRecordings(to: mark)
        }
        try? connection.cachedStatement("RELEASE albumstore_changeset").run()
    }

    /// Runs every change; `false` at the first one that does not go through as recorded.
    private func applyChanges(_ bytes: UnsafeRawBufferPointer, layouts: TableLayouts) -> Bool {
        var iterator: OpaquePointer?
        guard sqlite3changeset_start(&iterator, Int32(bytes.count), UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                == SQLITE_OK, let iterator else { return false }
        defer { sqlite3changeset_finalize(iterator) }
        var layout: TableLayout?
        var code = sqlite3changeset_next(iterator)
        while code == SQLITE_ROW {
            var table: UnsafePointer<CChar>?
            var columns: Int32 = 0
            var kind: Int32 = 0
            var indirect: Int32 = 0
            var primaryKey: UnsafeMutablePointer<UInt8>?
            var keyColumns: Int32 = 0
            guard sqlite3changeset_op(iterator, &table, &columns, &kind, &indirect) == SQLITE_OK,
                  sqlite3changeset_pk(iterator, &primaryKey, &keyColumns) == SQLITE_OK,
                  let table, let primaryKey else { return false }
            // Changes come grouped by table: look the table up when it changes.
            if layout.map({ strcmp($0.name, table) != 0 }) ?? true {
                layout = layouts.layout(of: String(cString: table), connection: connection)
            }
            guard let layout, layout.matches(columns: columns, primaryKey: primaryKey),
                  apply(kind, layout: layout, iterator: iterator) else { return false }
            code = sqlite3changeset_next(iterator)
        }
        return code == SQLITE_DONE
    }

    private func apply(_ kind: Int32, layout: TableLayout, iterator: OpaquePointer) -> Bool {
        let count = layout.columns.count
        var parameters: [(column: Int, old: Bool)] = []
        let sql: String
        switch kind {
        case SQLITE_INSERT:
            sql = layout.insertSQL
            parameters = (0..<count).map { ($0, false) }
        case SQLITE_DELETE:
            sql = layout.deleteSQL
            parameters = (0..<count).map { ($0, true) }
        case SQLITE_UPDATE:
            // New values for the changed columns; old values for the key and the changed columns.
            var changed: UInt64 = 0
            var compared: UInt64 = 0
            for column in 0..<count {
                var value: OpaquePointer?
                if sqlite3changeset_new(iterator, Int32(column), &value) == SQLITE_OK, value != nil {
                    changed |= 1 << UInt64(column)
                }
                if sqlite3changeset_old(iterator, Int32(column), &value) == SQLITE_OK, value != nil {
                    compared |= 1 << UInt64(column)
                }
            }
            // The key must be among the compared columns, or the WHERE would not pick one row.
            guard changed != 0, layout.keyFirst.allSatisfy({ !layout.isKey[$0] || compared & (1 << UInt64($0)) != 0 })
            else { return false }
            sql = layout.updateSQL(changed: changed, compared: compared)
            parameters = (0..<count).filter { changed & (1 << UInt64($0)) != 0 }.map { ($0, false) }
                + layout.keyFirst.filter { compared & (1 << UInt64($0)) != 0 }.map { ($0, true) }
        default:
            return false
        }
        guard let statement = try? connection.cachedStatement(sql) else { return false }
        for (offset, parameter) in parameters.enumerated() {
            var value: OpaquePointer?
            let read = parameter.old ? sqlite3changeset_old(iterator, Int32(parameter.column), &value)
                : sqlite3changeset_new(iterator, Int32(parameter.column), &value)
            // A delete or an insert carries every column; a missing one is not as recorded.
            guard read == SQLITE_OK, let value,
                  sqlite3_bind_value(statement.handle, Int32(offset + 1), value) == SQLITE_OK else { return false }
        }
        do {
            try statement.run()
        } catch {
            return false
        }
        return connection.changes == 1
    }
}

/// A table as changesets number its columns (in table order) and as the applier's SQL names them.
final class TableLayout {
    /// The table's name as a C string, to compare with the changeset's without making a String.
    let name: UnsafeMutablePointer<CChar>
    let columns: [String]
    let isKey: [Bool]
    /// Column numbers, key columns first: the order of an update's and a delete's WHERE.
    let keyFirst: [Int]
    let insertSQL: String
    let deleteSQL: String
    private var updates: [UpdateShape: String] = [:]

    private struct UpdateShape: Hashable {
        var changed: UInt64
        var compared: UInt64
    }

    init(name: String, columns: [String], isKey: [Bool]) {
        self.name = strdup(name)
        self.columns = columns
        self.isKey = isKey
        keyFirst = columns.indices.filter { isKey[$0] } + columns.indices.filter { !isKey[$0] }
        let table = "main." + quoted(name)
        insertSQL = "INSERT INTO \(table) (\(columns.map(quoted).joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        deleteSQL = "DELETE FROM \(table) WHERE "
            + (0..<columns.count).map { quoted(columns[$0]) + (isKey[$0] ? " = ?" : " IS ?") }.joined(separator: " AND ")
    }

    deinit { free(name) }

    /// Whether a changeset's change of `columns` columns with these key flags fits this table.
    func matches(columns count: Int32, primaryKey: UnsafeMutablePointer<UInt8>) -> Bool {
        guard Int(count) == columns.count, count <= 64, isKey.contains(true) else { return false }
        for column in 0..<columns.count where (primaryKey[column] != 0) != isKey[column] { return false }
        return true
    }

    /// `UPDATE ... SET` the `changed` columns `WHERE` the key and the other `compared` columns
    /// equal their old values; parameters: the new values in column order, then the old ones,
    /// key first.
    func updateSQL(changed: UInt64, compared: UInt64) -> String {
        let shape = UpdateShape(changed: changed, compared: compared)
        if let sql = updates[shape] { return sql }
        let set = columns.indices.filter { changed & (1 << UInt64($0)) != 0 }.map { quoted(columns[$0]) + " = ?" }
        let conditions = keyFirst.filter { compared & (1 << UInt64($0)) != 0 }
            .map { quoted(columns[$0]) + (isKey[$0] ? " = ?" : " IS ?") }
        let sql = "UPDATE main.\(quoted(String(cString: name))) SET \(set.joined(separator: ", ")) WHERE "
            + conditions.joined(separator: " AND ")
        updates[shape] = sql
        return sql
    }
}

/// The layouts of a connection's tables, read once per schema version.
final class TableLayouts {
    let schemaVersion: Int64
    private var tables: [String: TableLayout?] = [:]

    init(schemaVersion: Int64) { self.schemaVersion = schemaVersion }

    /// The layout of `table` in the main database, `nil` when it has none (no such table).
    func layout(of table: String, connection: Connection) -> TableLayout? {
        if let known = tables[table] { return known }
        var columns: [String] = []
        var isKey: [Bool] = []
        // Not a cached statement: PRAGMA table_info expires itself after each run.
        let read: Void? = try? connection.prepare("PRAGMA main.table_info(\(quoted(table)))").forEach { row in
            columns.append(try row[1])
            isKey.append(try row[5, as: Int64.self] > 0)
        }
        let layout = read != nil && !columns.isEmpty ? TableLayout(name: table, columns: columns, isKey: isKey) : nil
        tables[table] = layout
        return layout
    }
}

extension Connection {
    /// The table layouts for the current schema: kept while `PRAGMA schema_version` stays.
    /// `nil` when the schema version cannot be read.
    func tableLayouts() -> TableLayouts? {
        guard let version = try? scalar("PRAGMA main.schema_version", as: Int64.self) else { return nil }
        if let layouts = changesetLayouts, layouts.schemaVersion == version { return layouts }
        let layouts = TableLayouts(schemaVersion: version)
        changesetLayouts = layouts
        return layouts
    }
}

/// `name` as a quoted SQL identifier.
func quoted(_ name: String) -> String {
    "\"" + name.replacing("\"", with: "\"\"") + "\""
}
