import AlbumStore
import FoundationEssentials

/// One change set as `albumstore watch` prints it: a line a person can read, or one JSON object.
enum ChangeSetLine {
    /// The line for `set`; `ndjson` is `ChangeSet`'s `Codable` form (snake_case keys, sorted).
    static func render(_ set: ChangeSet, as format: WatchFormat) throws -> String {
        switch format {
        case .ndjson:
            return try RecordPrinter.json(set)
        case .table:
            let time = set.date.formatted(.iso8601)
            if set.isOverflow { return "cursor \(set.cursor)  \(time)  changes were lost: reload everything" }
            let tables = set.tables.sorted { $0.key < $1.key }.map { name, changes in
                let parts = [("inserted", changes.inserted), ("updated", changes.updated), ("deleted", changes.deleted)]
                    .filter { !$0.1.isEmpty }
                    .map { "\($0.0) \(describe($0.1))" }
                return "\(name): " + parts.joined(separator: ", ")
            }
            let what = tables.isEmpty ? "no net change" : tables.joined(separator: "; ")
            return "cursor \(set.cursor)  tx \(set.transaction)  \(time)  \(what)"
        }
    }

    /// Ids as "1, 2, 5...900": ranges stay short however many rows they hold.
    private static func describe(_ ids: RowIDs) -> String {
        ids.ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)...\($0.upperBound)" }
            .joined(separator: ", ")
    }
}

enum WatchFormat: String, CaseIterable {
    case table, ndjson
}
