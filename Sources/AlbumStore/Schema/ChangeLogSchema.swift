internal import AlbumSQLite

/// What a file's schema says about its generated triggers, read in one statement: whether it
/// has a `change_log` table, how each observed table keys its rows, which of the tables order
/// statistics need exist, and the triggers named like the generated ones (`*_log_*`,
/// `*_order_*`), with their SQL.
///
/// One statement because it runs at every open: `sqlite_schema` and the table-info pragmas
/// read the schema the connection has already parsed, so this costs microseconds and no I/O
/// beyond what opening does anyway. Names are keyed in lower case: SQLite's are case-insensitive.
struct ChangeLogSchema {
    struct Table {
        /// The column of a lone `INTEGER PRIMARY KEY` (declared type exactly INTEGER, as SQLite
        /// requires of a rowid alias), if any.
        var integerPrimaryKey: String?
        var isWithoutRowID: Bool
    }

    struct Trigger {
        /// As created, in its original case.
        var name: String
        /// The table it is on (`sqlite_schema.tbl_name`).
        var table: String
        var sql: String
    }

    var hasChangeLog = false
    /// The observed tables that exist, by lower-cased name.
    var tables: [String: Table] = [:]
    /// The triggers named `*_log_*` or `*_order_*`, by lower-cased name.
    var triggers: [String: Trigger] = [:]
    /// Those of the `ordered` tables (ordered lists and their statistics tables) that exist, by
    /// lower-cased name.
    var existing: Set<String> = []

    init(observed: [String], ordered: [String] = [], in connection: Connection) throws {
        let names = observed + ordered
        let placeholders = Array(repeating: ", ?", count: names.count).joined()
        // `main.` and the pragmas' 'main' argument: a temporary table of the same name on this
        // connection would otherwise shadow the file's. (pragma_table_list needs SQLite 3.37.)
        let sql = """
            SELECT type, name, tbl_name, sql,
                CASE type WHEN 'table' THEN (
                    SELECT p.name FROM pragma_table_info(s.name, 'main') AS p
                    WHERE p.pk = 1 AND upper(p.type) = 'INTEGER'
                        AND NOT EXISTS (SELECT 1 FROM pragma_table_info(s.name, 'main') WHERE pk > 1)
                ) END,
                CASE type WHEN 'table' THEN (SELECT wr FROM pragma_table_list(s.name) WHERE schema = 'main') END
            FROM main.sqlite_schema AS s
            WHERE type = 'trigger' AND (lower(name) GLOB '*_log_*' OR lower(name) GLOB '*_order_*')
                OR type = 'table' AND lower(name) IN ('change_log'\(placeholders))
            """
        try connection.cachedStatement(sql).forEach(names.map { $0.lowercased() }) { row in
            let name: String = try row[1]
            let key = name.lowercased()
            if try row[0, as: String.self] == "trigger" {
                triggers[key] = Trigger(name: name, table: try row[2], sql: try row[3])
                return
            }
            if key == "change_log" { hasChangeLog = true }
            if ordered.contains(where: { $0.lowercased() == key }) { existing.insert(key) }
            if observed.contains(where: { $0.lowercased() == key }) {
                tables[key] = Table(integerPrimaryKey: try row[4], isWithoutRowID: try row[5, as: Bool?.self] ?? false)
            }
        }
    }
}
