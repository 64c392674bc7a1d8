import CSQLite

/// The tables the work runs on: every kind of primary key a changeset carries (a rowid alias,
/// a text key with NULLs allowed, a WITHOUT ROWID key whose order differs from the columns', a
/// REAL key) and a table without one, which both recorders ignore; columns of every affinity.
/// A CHECK and a trigger's RAISE(ABORT) make statements fail part-way (`b` counting up to 99 in
/// `UPDATE t1 SET b = b + 1`, or to 77): SQLite undoes the rows already changed without
/// telling the pre-update hook, and the recorder must follow it (`Statement.step`).
enum Schema {
    static let tables = """
        CREATE TABLE t1(id INTEGER PRIMARY KEY, a TEXT, b INTEGER CHECK (b IS NOT 99), c REAL, d BLOB, e NUMERIC, f);
        CREATE TABLE t2(k TEXT PRIMARY KEY, v, w DOUBLE);
        CREATE TABLE t3(x INTEGER, y TEXT, z, PRIMARY KEY (y, x)) WITHOUT ROWID;
        CREATE TABLE t4(r REAL PRIMARY KEY, s FLOAT);
        CREATE TABLE t5(u, v);
        """
    /// Changes made by a trigger: the changeset's "indirect" ones.
    static let trigger = """
        CREATE TRIGGER t1_tag AFTER INSERT ON t1 WHEN new.b > 50 BEGIN
            INSERT OR REPLACE INTO t2 VALUES ('tag ' || (new.b % 3), new.id, new.c);
        END;
        CREATE TRIGGER t1_refuse AFTER UPDATE ON t1 WHEN new.b IS 77 BEGIN
            INSERT OR REPLACE INTO t3 VALUES (7, 'refused', new.id);
            SELECT RAISE(ABORT, 'b reached 77');
        END;
        """
    static let names = ["t1", "t2", "t3", "t4", "t5"]
    /// The columns with REAL affinity, by table: SQLite stores a whole REAL as an integer, and the
    /// session extension writes the integer its pre-update hook gives, where the recorder writes
    /// the REAL a read of the row gives; the comparison takes them as the same value.
    static let realColumns = ["t1": [3], "t2": [2], "t4": [0, 1]]
    /// The tables with a primary key: the ones changesets carry.
    static let keyed = ["t1", "t2", "t3", "t4"]
    /// Each table's rows in a stable order (rowid last, for the rows a NULL key lets repeat).
    static let order = ["t1": "id", "t2": "k, rowid", "t3": "y, x", "t4": "r, rowid", "t5": "rowid"]
    /// A condition that leaves out rows with a NULL in their key, which sessions never record.
    static let keyNotNull = ["t1": "id IS NOT NULL", "t2": "k IS NOT NULL", "t3": "x IS NOT NULL AND y IS NOT NULL",
                             "t4": "r IS NOT NULL"]
    /// The rows every run starts from.
    static let rows = [
        "INSERT INTO t1 VALUES (1, 'Low', 1977, 4.5, x'00ff', 2.0, NULL), (2, 'Heroes', 1977, 3, NULL, 'x', 1.5), (5, NULL, 60, NULL, x'', 12, 'five')",
        "INSERT INTO t2 VALUES ('k0', 1, 2.0), ('k1', NULL, 0.5), (NULL, 'null key', NULL)",
        "INSERT INTO t3 VALUES (0, 'a', 'x'), (1, 'b', NULL), (2, 'a', 3.25)",
        "INSERT INTO t4 VALUES (1.5, 'one and a half'), (2.5, 2), ('x', NULL)",
        "INSERT INTO t5 VALUES (1, 2)",
    ]
}

/// A connection's `sqlite3*`, with the few calls the comparison needs. Statements are prepared
/// once and kept: preparing costs more than running the small statements of a run.
final class Database {
    let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    init(handle: OpaquePointer) { self.handle = handle }

    deinit { for statement in statements.values { sqlite3_finalize(statement) } }

    /// The prepared statement of `sql`, reset and with no value bound; `nil` with the result
    /// code when it does not prepare.
    private func statement(_ sql: String) -> (OpaquePointer?, Int32) {
        if let statement = statements[sql] { return (statement, SQLITE_OK) }
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else { return (nil, prepared) }
        statements[sql] = statement
        return (statement, SQLITE_OK)
    }

    /// Runs `sql` with `values` bound, stepping through any rows; the result code.
    @discardableResult
    func run(_ sql: String, _ values: [Value] = []) -> Int32 {
        let (statement, prepared) = self.statement(sql)
        guard let statement else { return prepared }
        defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
        for (index, value) in values.enumerated() { value.bind(to: statement, at: Int32(index + 1)) }
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW { code = sqlite3_step(statement) }
        return code
    }

    /// Runs one statement that must succeed.
    func mustRun(_ sql: String, _ values: [Value] = []) {
        guard run(sql, values) == SQLITE_DONE else {
            fatalError("\(sql) failed: \(String(cString: sqlite3_errmsg(handle))) \(values)")
        }
    }

    /// Runs statements that must succeed (the set-up).
    func execute(_ sql: String) {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            fatalError("set-up failed: \(String(cString: sqlite3_errmsg(handle))): \(sql)")
        }
    }

    /// Every row of `table`, in `Schema.order`; with `keyedOnly`, not those with a NULL in the key.
    func rows(of table: String, keyedOnly: Bool = false) -> [[Value]] {
        let condition = keyedOnly ? Schema.keyNotNull[table].map { " WHERE \($0)" } ?? "" : ""
        let sql = "SELECT * FROM \(table)\(condition) ORDER BY \(Schema.order[table]!)"
        guard case (let statement?, _) = self.statement(sql) else {
            fatalError("cannot read \(table): \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_reset(statement) }
        var rows: [[Value]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(statement)).map { Value(column: $0, of: statement) })
        }
        return rows
    }

    /// The rows of `tables`, table by table.
    func contents(_ tables: [String], keyedOnly: Bool = false) -> [[[Value]]] {
        tables.map { rows(of: $0, keyedOnly: keyedOnly) }
    }

    /// Empties every table and ends any transaction left open, outside any recording.
    func reset() {
        if sqlite3_get_autocommit(handle) == 0 { run("ROLLBACK") }
        for table in Schema.names { mustRun("DELETE FROM \(table)") }
    }

    /// Replaces the rows of the keyed tables with `contents` (from `contents(Schema.keyed)`).
    func load(_ contents: [[[Value]]]) {
        reset()
        for (table, rows) in zip(Schema.keyed, contents) {
            for row in rows {
                mustRun("INSERT INTO \(table) VALUES (\(Array(repeating: "?", count: row.count).joined(separator: ", ")))", row)
            }
        }
    }
}
