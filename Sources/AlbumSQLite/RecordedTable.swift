import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The net changes to one table while a `ChangeRecorder` runs: for each row touched, its values
/// before the first change (none for a row that did not exist) and after the last (none for a
/// row that is gone), as the pre-update hook gives them. What `write` makes of them is what the
/// session extension's `sqlite3session_changeset` would: an insert, a delete, or an update of
/// the columns whose values differ, and nothing for a row that ends as it began.
final class RecordedTable {
    private let name: ContiguousArray<CChar>
    /// Known from the table's first change; `hasKey` false means the table is not recorded.
    private var layout: RecordedLayout?
    private var rows: [Row] = []
    private var rowIndex: [RowKey: Int] = [:]
    /// Every record `rows` points into, one field after another (`ChangesetField`).
    private var fields: [UInt8] = []
    /// What undoes each change to `rows` since the oldest open mark (`ChangeRecording.mark`),
    /// oldest first; empty while no mark is open.
    private var journal: [Undo] = []
    /// The number of the hook event being recorded when it is journaled, else `nil`.
    private var event: Int?

    /// What undoes one change: the row's values before it (its original ones for a row new to
    /// the recording).
    ///
    /// As in a session, an undone change leaves its row held (followed while recording is off)
    /// and its indirect flag as the change left it; the records it appended stay in `fields`.
    private struct Undo {
        /// The hook event that made the change; a mark is the number of the next event.
        let event: Int
        let index: Int
        let current: Int
    }

    /// Where a row's records start in `fields` (24 bytes a row: an undo of a large import
    /// holds millions).
    private struct Row {
        /// The values before the first change; `none` when the row did not exist.
        var original: Int
        /// The values now; `none` when the row does not exist.
        var current: Int
        /// Whether every change came from a trigger (the session extension's "indirect").
        var isIndirect: Bool

        static let none = -1
    }

    /// A row's primary key: its integer when that is the whole key, else the key's fields.
    private enum RowKey: Hashable {
        case integer(Int64)
        case fields([UInt8])
    }

    private enum Side { case old, new }

    init(name: String) {
        self.name = ContiguousArray(name.utf8CString)
    }

    var isEmpty: Bool { rows.isEmpty }

    func isNamed(_ table: UnsafePointer<CChar>) -> Bool {
        name.withUnsafeBufferPointer { strcmp($0.baseAddress!, table) == 0 }
    }

    /// Takes one change the pre-update hook reports. With `enabled` false, only rows already
    /// held are followed. With an `event` number, what the change replaces is journaled under it.
    func record(_ operation: Int32, enabled: Bool, event: Int?, on handle: ConnectionHandle) throws(SQLiteError) {
        self.event = event
        let sqlite = handle.sqlite
        let columns = sqlite3_preupdate_count(sqlite)
        if layout?.columnCount != columns {
            guard layout == nil || rows.isEmpty else {
                throw SQLiteError(extendedCode: SQLITE_SCHEMA, message: "the columns of \(tableName) changed while its changes were recorded")
            }
            layout = try handle.recordedLayout(of: tableName)
            guard layout?.columnCount == columns else {
                throw SQLiteError(extendedCode: SQLITE_SCHEMA, message: "\(tableName) does not have the \(columns) columns its change has")
            }
        }
        guard let layout, layout.hasKey else { return }
        let indirect = sqlite3_preupdate_depth(sqlite) > 0
        // A key with a NULL (which a rowid table allows in a key that is not its rowid) names no
        // row a changeset could carry: the session extension leaves such rows out, and so does this.
        switch operation {
        case SQLITE_INSERT:
            guard let key = try key(.new, layout, sqlite) else { return }
            try inserted(key, enabled: enabled, indirect: indirect, sqlite)
        case SQLITE_DELETE:
            guard let key = try key(.old, layout, sqlite) else { return }
            try deleted(key, enabled: enabled, indirect: indirect, sqlite)
        default:
            let old = try key(.old, layout, sqlite), new = try key(.new, layout, sqlite)
            guard old == new else {
                // A new key: the session extension's delete of the old row and insert of the new.
                if let old { try deleted(old, enabled: enabled, indirect: indirect, sqlite) }
                if let new { try inserted(new, enabled: enabled, indirect: indirect, sqlite) }
                return
            }
            guard let old else { return }
            guard let index = try row(old, enabled: enabled, indirect: indirect, original: { () throws(SQLiteError) in
                try append(.old, sqlite)
            }) else { return }
            rows[index].current = try append(.new, sqlite)
        }
    }

    private func inserted(_ key: RowKey, enabled: Bool, indirect: Bool, _ sqlite: OpaquePointer) throws(SQLiteError) {
        // A key new to the recording did not exist when it began: the key is unique, and a row
        // deleted since would be held.
        guard let index = try row(key, enabled: enabled, indirect: indirect, original: { Row.none }) else { return }
        rows[index].current = try append(.new, sqlite)
    }

    private func deleted(_ key: RowKey, enabled: Bool, indirect: Bool, _ sqlite: OpaquePointer) throws(SQLiteError) {
        guard let index = try row(key, enabled: enabled, indirect: indirect, original: { () throws(SQLiteError) in
            try append(.old, sqlite)
        }) else { return }
        rows[index].current = Row.none
    }

    /// The index of the row under `key`: the one held, else (when `enabled`) a new one that
    /// starts from `original()`.
    private func row(
        _ key: RowKey, enabled: Bool, indirect: Bool, original: () throws(SQLiteError) -> Int
    ) throws(SQLiteError) -> Int? {
        if let index = rowIndex[key] {
            if let event { journal.append(Undo(event: event, index: index, current: rows[index].current)) }
            if enabled && !indirect { rows[index].isIndirect = false }
            return index
        }
        guard enabled else { return nil }
        rows.append(Row(original: try original(), current: Row.none, isIndirect: indirect))
        rowIndex[key] = rows.count - 1
        if let event { journal.append(Undo(event: event, index: rows.count - 1, current: rows[rows.count - 1].original)) }
        return rows.count - 1
    }

    // MARK: Following rollbacks

    /// Undoes the changes of hook events numbered `event` and later: SQLite rolled them back.
    func rollBack(toEvent event: Int) {
        while let undo = journal.last, undo.event >= event {
            journal.removeLast()
            rows[undo.index].current = undo.current
        }
    }

    /// Forgets the journal: no mark is open any more, so nothing can be undone.
    func dropJournal() {
        journal = []
    }

    /// Undoes every change: all were rolled back.
    func rollBackAll() {
        for index in rows.indices { rows[index].current = rows[index].original }
        journal = []
    }

    /// The key of the row on `side`; `nil` when one of its values is NULL.
    ///
    /// A REAL key column never takes the integer shortcut: the pre-update hook gives a whole
    /// REAL as the integer SQLite stores when it reads the row (a delete, an update's old
    /// values), and as a REAL when it comes from the statement (an insert), so only the REAL
    /// form names the row the same way both times.
    private func key(_ side: Side, _ layout: RecordedLayout, _ sqlite: OpaquePointer) throws(SQLiteError) -> RowKey? {
        if layout.keyColumns.count == 1 && !layout.isReal[Int(layout.keyColumns[0])] {
            let value = try self.value(side, layout.keyColumns[0], sqlite)
            if let value, sqlite3_value_type(value) == SQLITE_INTEGER { return .integer(sqlite3_value_int64(value)) }
        }
        var bytes: [UInt8] = []
        for column in layout.keyColumns {
            let value = try value(side, column, sqlite)
            guard let value, sqlite3_value_type(value) != SQLITE_NULL else { return nil }
            ChangesetField.append(value, real: layout.isReal[Int(column)], to: &bytes)
        }
        return .fields(bytes)
    }

    /// Appends the row's values on `side` to `fields` and returns where they start.
    private func append(_ side: Side, _ sqlite: OpaquePointer) throws(SQLiteError) -> Int {
        let start = fields.count
        for column in 0..<(layout?.columnCount ?? 0) {
            ChangesetField.append(try value(side, column, sqlite), real: layout?.isReal[Int(column)] ?? false, to: &fields)
        }
        return start
    }

    /// The record of `columns` fields that starts at `start` in `fields`.
    private func record(at start: Int, columns: Int32) -> Range<Int> {
        var end = start
        for _ in 0..<columns { end += ChangesetField.length(of: fields, at: end) }
        return start..<end
    }

    private func value(_ side: Side, _ column: Int32, _ sqlite: OpaquePointer) throws(SQLiteError) -> OpaquePointer? {
        var value: OpaquePointer?
        let code = side == .old ? sqlite3_preupdate_old(sqlite, column, &value) : sqlite3_preupdate_new(sqlite, column, &value)
        if code == SQLITE_RANGE {
            // SQLite 3.40 hands out only the values a row stores: a virtual generated column
            // (which another program may add) has none. The session extension fails there too.
            throw SQLiteError(extendedCode: SQLITE_SCHEMA, message: """
                cannot record the changes to \(tableName): its column \(column + 1) is not stored in its rows \
                (a virtual generated column?)
                """)
        }
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: sqlite) }
        return value
    }

    private var tableName: String {
        name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    // MARK: Writing the changeset

    /// Appends the table's net changes to `bytes`: its header, then an insert, delete or update
    /// per row that differs from how it began. Nothing when no row does.
    func write(into bytes: inout [UInt8]) {
        guard let layout, layout.hasKey, !rows.isEmpty else { return }
        let start = bytes.count
        bytes.append(UInt8(ascii: "T"))
        ChangesetField.appendVarint(Int(layout.columnCount), to: &bytes)
        bytes.append(contentsOf: layout.primaryKey)
        name.withUnsafeBufferPointer { name in
            bytes.append(contentsOf: UnsafeRawBufferPointer(name))  // with its NUL
        }
        let header = bytes.count
        for row in rows {
            let indirect: UInt8 = row.isIndirect ? 1 : 0
            switch (row.original, row.current) {
            case (Row.none, Row.none):
                continue
            case (Row.none, let current):
                bytes.append(0x12)
                bytes.append(indirect)
                bytes.append(contentsOf: fields[record(at: current, columns: layout.columnCount)])
            case (let original, Row.none):
                bytes.append(0x09)
                bytes.append(indirect)
                bytes.append(contentsOf: fields[record(at: original, columns: layout.columnCount)])
            case (let original, let current):
                writeUpdate(from: original, to: current, indirect: indirect, layout: layout, into: &bytes)
            }
        }
        if bytes.count == header { bytes.removeSubrange(start...) }
    }

    /// An update: the old record holds the key and the changed columns' old values, the new
    /// record the changed columns' new values, every other field undefined. Nothing when no
    /// value differs (compared as the session extension compares them: `sameValue`).
    private func writeUpdate(from original: Int, to current: Int, indirect: UInt8,
                             layout: RecordedLayout, into bytes: inout [UInt8]) {
        var oldRecord: [UInt8] = [0x17, indirect]
        var newRecord: [UInt8] = []
        var old = original, new = current
        var changed = false
        for column in 0..<Int(layout.columnCount) {
            let oldEnd = old + ChangesetField.length(of: fields, at: old)
            let newEnd = new + ChangesetField.length(of: fields, at: new)
            let differs = !ChangesetField.sameValue(fields[old..<oldEnd], fields[new..<newEnd])
            changed = changed || differs
            if differs || layout.primaryKey[column] != 0 {
                oldRecord.append(contentsOf: fields[old..<oldEnd])
            } else {
                oldRecord.append(ChangesetField.undefined)
            }
            if differs { newRecord.append(contentsOf: fields[new..<newEnd]) } else { newRecord.append(ChangesetField.undefined) }
            old = oldEnd
            new = newEnd
        }
        guard changed else { return }
        bytes.append(contentsOf: oldRecord)
        bytes.append(contentsOf: newRecord)
    }
}

/// A table's columns as a changeset names them: how many, and each one's place in the primary
/// key (1-based; 0 when not in it), as `PRAGMA table_xinfo` gives them.
struct RecordedLayout {
    let columnCount: Int32
    let primaryKey: [UInt8]
    /// Which columns have REAL affinity. SQLite stores a whole REAL as an integer, and 3.40's
    /// `sqlite3_preupdate_new` hands that integer back where a read would give the REAL.
    let isReal: [Bool]
    /// The key's columns, in key order.
    let keyColumns: [Int32]

    var hasKey: Bool { !keyColumns.isEmpty }

    /// Reads the layout of `table` in the main database with the C API: it runs inside the
    /// pre-update hook, where the connection's statement cache is in use.
    static func read(_ table: String, on sqlite: OpaquePointer) throws(SQLiteError) -> RecordedLayout {
        let sql = "PRAGMA main.table_xinfo(\(quoted(table)))"
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(sqlite, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw SQLiteError(code: code, connection: sqlite) }
        defer { sqlite3_finalize(statement) }
        var key: [UInt8] = []
        var isReal: [Bool] = []
        var step = sqlite3_step(statement)
        while step == SQLITE_ROW {
            key.append(UInt8(clamping: sqlite3_column_int(statement, 5)))
            isReal.append(hasRealAffinity(sqlite3_column_text(statement, 2).map { String(cString: $0) } ?? ""))
            step = sqlite3_step(statement)
        }
        guard step == SQLITE_DONE else { throw SQLiteError(code: step, connection: sqlite) }
        let keyColumns = key.indices.filter { key[$0] != 0 }.sorted { key[$0] < key[$1] }.map { Int32($0) }
        return RecordedLayout(columnCount: Int32(key.count), primaryKey: key, isReal: isReal, keyColumns: keyColumns)
    }

    /// SQLite's rules for a declared type's affinity (https://sqlite.org/datatype3.html, 3.1):
    /// REAL when it holds none of INT, CHAR, CLOB, TEXT, BLOB and one of REAL, FLOA, DOUB.
    private static func hasRealAffinity(_ declared: String) -> Bool {
        let type = declared.uppercased()
        if ["INT", "CHAR", "CLOB", "TEXT", "BLOB"].contains(where: type.contains) { return false }
        return ["REAL", "FLOA", "DOUB"].contains(where: type.contains)
    }
}
