/// The triggers that keep an ordered table's order statistics (`OrderBlocks`) in step with its
/// rows, generated from its description and installed at open with the change-log triggers
/// (`ChangeLogTriggerInstaller`).
///
/// Why triggers: they count in the transaction of every insert, delete and move, whatever
/// makes it (a command, undo and redo applying a changeset, the `sqlite3` shell), so
/// a commit or a rollback, even a killed process, takes the counts with the rows. Each adds or
/// takes one from the block holding the key: the one whose `first` is the largest at or below
/// it (one probe of the blocks' primary key). Generated rather than written in a migration so
/// that opening a library repairs one dropped or edited in the shell, as it does the change
/// log's; the counts that may have missed writes meanwhile are then rebuilt, found out by the
/// schema version (`OrderBlocks.areChecked`).
struct OrderStatisticsTriggers: Sendable, Hashable {
    let table: String
    let order: TableDescription.Order
    /// Whether the file has the total's table (`order.total`, migration 0010) to keep.
    var keepsTotal = true

    /// The name of `table`'s trigger for `operation`, e.g. `albums_order_insert`. Triggers of
    /// tables no longer ordered are recognised by it, so it must not change.
    static func name(of table: String, _ operation: ChangeOperation) -> String {
        "\(table)_order_\(operation.rawValue)"
    }

    /// The three triggers, insert, update and delete.
    var triggers: [GeneratedTrigger] { ChangeOperation.allCases.map(trigger) }

    func trigger(for operation: ChangeOperation) -> GeneratedTrigger {
        let name = Self.name(of: table, operation)
        let id = ChangeLogTriggers.identifier
        let key = id(order.column)
        let head = "CREATE TRIGGER \(id(name)) AFTER"
        let body: String = switch operation {
        case .insert: "\(head) INSERT ON \(id(table))\nBEGIN\n\(add(1, at: "NEW.\(key)"))\(addToTotal(1))\nEND"
        case .delete: "\(head) DELETE ON \(id(table))\nBEGIN\n\(add(-1, at: "OLD.\(key)"))\(addToTotal(-1))\nEND"
        // Only a changed key moves a row between blocks; other edits cost nothing.
        case .update: """
            \(head) UPDATE OF \(key) ON \(id(table)) WHEN OLD.\(key) IS NOT NEW.\(key)
            BEGIN
            \(add(-1, at: "OLD.\(key)"))
            \(add(1, at: "NEW.\(key)"))
            END
            """
        }
        return GeneratedTrigger(name: name, sql: body)
    }

    /// The statement adding `delta` to the total of the counts, on a line of its own (nothing
    /// when the file has no total). A move changes no total, so its trigger has none.
    private func addToTotal(_ delta: Int) -> String {
        guard keepsTotal else { return "" }
        return "\n    UPDATE \(ChangeLogTriggers.identifier(order.total)) SET total = total \(delta < 0 ? "-" : "+") \(abs(delta)) WHERE id = 1;"
    }

    /// The statement adding `delta` to the count of the block holding `key`.
    private func add(_ delta: Int, at key: String) -> String {
        let blocks = ChangeLogTriggers.identifier(order.blocks)
        return "    UPDATE \(blocks) SET count = count \(delta < 0 ? "-" : "+") \(abs(delta)) "
            + "WHERE first = (SELECT max(first) FROM \(blocks) WHERE first <= \(key));"
    }
}
