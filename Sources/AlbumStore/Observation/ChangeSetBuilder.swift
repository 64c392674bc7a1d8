import FoundationEssentials

/// Folds one transaction's log entries into net per-row changes.
struct ChangeSetBuilder {
    enum State { case inserted, updated, deleted, gone }

    let transaction: Int64
    let at: Int64
    var cursor: Int64 = 0
    var states: [String: [Int64: State]] = [:]
    /// Range entries of bulk work, per table and operation.
    var ranges: [String: [ChangeOperation: [ClosedRange<Int64>]]] = [:]

    init(transaction: Int64, at: Int64) {
        self.transaction = transaction
        self.at = at
    }

    mutating func add(_ entry: ChangeLog.Entry) {
        cursor = entry.seq
        if let last = entry.lastRowID {
            ranges[entry.table, default: [:]][entry.operation, default: []].append(entry.rowID...last)
            return
        }
        let previous = states[entry.table]?[entry.rowID]
        let next: State = switch (entry.operation, previous) {
        case (.insert, .deleted?): .updated
        case (.insert, _): .inserted
        case (.update, .inserted?): .inserted
        case (.update, _): .updated
        case (_, .inserted?): .gone
        default: .deleted
        }
        states[entry.table, default: [:]][entry.rowID] = next
    }

    func build() -> ChangeSet {
        var tables: [String: TableChanges] = [:]
        for table in Set(states.keys).union(ranges.keys) {
            let rows = states[table] ?? [:]
            func ids(_ state: State, _ operation: ChangeOperation) -> RowIDs {
                var ids = RowIDs()
                let all = rows.filter { $0.value == state }.map { $0.key...$0.key } + (ranges[table]?[operation] ?? [])
                for range in all.sorted(by: { $0.lowerBound < $1.lowerBound }) { ids.insert(range) }
                return ids
            }
            let changes = TableChanges(
                inserted: ids(.inserted, .insert), updated: ids(.updated, .update), deleted: ids(.deleted, .delete))
            if !changes.isEmpty { tables[table] = changes }
        }
        return ChangeSet(cursor: cursor, transaction: transaction, date: Date(millisecondsSince1970: at), tables: tables)
    }
}
