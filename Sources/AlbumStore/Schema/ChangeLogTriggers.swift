/// The change-log triggers of one observed table, generated from its description.
///
/// Why generated rather than written in a migration: every observed table needs the same three
/// triggers, differing only in names, and copies drift (a fix made to one table's triggers and
/// forgotten on another's). The migrations stay the source of truth for tables; these triggers
/// are derived from `TableDescription.all` each time a library is opened (see
/// `ChangeLogTriggerInstaller`), so a new observed table needs no trigger SQL of its own.
///
/// Each trigger writes one `change_log` entry per row, in the transaction of the change, under
/// the newest entry's transaction number (`newestTransactionSQL`): the library gives
/// its own entries a number of their own when it commits, so that is the number other programs'
/// writes are logged under. Session state's tables (`numbersEachEntry`) give each entry the
/// next number instead: a navigation write (saving the current album) changes one row, and its
/// entry then has its number without a statement of the library's to give it one, a tenth of
/// the save's cost; another program's change to several of their rows comes to observers as a
/// change set a row. The insert and delete
/// triggers stand aside while `change_control.bulk = 1`: bulk work logs its rows as range
/// entries instead (`ChangeLog.bulk`). Updates are never bulk, so their trigger always logs.
/// Related SQLite documentation: https://sqlite.org/lang_createtrigger.html
struct ChangeLogTriggers: Sendable, Hashable {
    /// The transaction number SQL gives a new entry: the newest entry's (0 for an empty log). The
    /// library numbers its own entries before it commits (`ChangeLog.number(entriesAfter:as:in:)`), so this
    /// is what the writes of other programs (the `sqlite3` shell) are logged under: merged into
    /// the change set before them, as they do not number their transactions.
    static let newestTransactionSQL = "coalesce((SELECT tx FROM change_log ORDER BY seq DESC LIMIT 1), 0)"

    typealias Trigger = GeneratedTrigger

    /// The observed table's name, as its description gives it.
    let table: String
    /// The column whose value the log records as the row id: the table's INTEGER PRIMARY KEY, or
    /// `rowid` for a table without one (see `ChangeLogTriggerInstaller.rowIDColumn`).
    let rowIDColumn: String

    /// Whether each entry gets the next transaction number rather than the newest entry's.
    let numbersEachEntry: Bool

    init(table: String, rowIDColumn: String, numbersEachEntry: Bool = false) {
        self.table = table
        self.rowIDColumn = rowIDColumn
        self.numbersEachEntry = numbersEachEntry
    }

    /// The name of `table`'s trigger for `operation`, e.g. `albums_log_insert`. Tables no longer
    /// observed are recognised by it, so it must not change.
    static func name(of table: String, _ operation: ChangeOperation) -> String {
        "\(table)_log_\(operation.rawValue)"
    }

    /// The three triggers, insert, update and delete.
    var triggers: [Trigger] { ChangeOperation.allCases.map(trigger) }

    func trigger(for operation: ChangeOperation) -> Trigger {
        let name = Self.name(of: table, operation)
        let (event, row, skipsBulk): (String, String, Bool) = switch operation {
        case .insert: ("INSERT", "NEW", true)
        case .update: ("UPDATE", "NEW", false)
        // A deleted row is only known as OLD. `DELETE FROM t` still fires this (SQLite skips its
        // truncate shortcut on a table with triggers), and so do rows REPLACE deletes, on a
        // connection with recursive_triggers on (every AlbumStore connection).
        case .delete: ("DELETE", "OLD", true)
        }
        let when = skipsBulk ? " WHEN (SELECT bulk FROM change_control) = 0" : ""
        let sql = """
            CREATE TRIGGER \(Self.identifier(name)) AFTER \(event) ON \(Self.identifier(table))\(when)
            BEGIN
                INSERT INTO change_log (tx, table_name, operation, row_id, at)
                VALUES (\(Self.newestTransactionSQL)\(numbersEachEntry ? " + 1" : ""), \(Self.literal(table)), \(Self.literal(operation.rawValue)), \(row).\(Self.identifier(rowIDColumn)),
                        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
            END
            """
        return Trigger(name: name, sql: sql)
    }

    /// `name` as a quoted SQL identifier: any name a description gives, even one with spaces or
    /// quotes, or an SQL keyword, stays one identifier.
    static func identifier(_ name: String) -> String {
        // Most names hold no quote: skip `replacing`, which costs more than all the rest (the
        // order statistics build their SQL with this on every command).
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacing("\"", with: "\"\"") + "\""
    }

    /// `text` as an SQL string literal. Trigger bodies cannot take bound parameters, and the
    /// text comes from a table description in our code, never from user input.
    static func literal(_ text: String) -> String {
        "'" + text.replacing("'", with: "''") + "'"
    }
}
