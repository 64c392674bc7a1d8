import FoundationEssentials

/// What one committed transaction changed, as subscribers and the change feed report it.
///
/// Its JSON form: `cursor`, `transaction`, `date` (an `ISO8601Timestamp` string), `tables` (per
/// table name, in name order: `inserted`, `updated`, `deleted` as arrays of ids), `is_overflow`.
public struct ChangeSet: Sendable, Hashable, Codable {
    /// The change log position of this set's last entry: resume a feed after it with `since:`.
    public var cursor: Int64
    /// The transaction number (see `change_control.tx`).
    public var transaction: Int64
    /// When the transaction's first change was made.
    public var date: Date
    /// Per table (`albums`, ...), the ids of the rows inserted, updated and deleted.
    public var tables: [String: TableChanges]
    /// `true` when changes were dropped because a subscriber fell behind: reload everything.
    public var isOverflow: Bool

    /// A change set with these values, e.g. to test code that consumes them.
    public init(cursor: Int64, transaction: Int64, date: Date, tables: [String: TableChanges], isOverflow: Bool = false) {
        self.cursor = cursor
        self.transaction = transaction
        self.date = date
        self.tables = tables
        self.isOverflow = isOverflow
    }

    /// The changes to the albums (empty when none).
    public var albums: TableChanges { tables["albums"] ?? TableChanges() }

    /// Whether this set may affect a value computed from `table`.
    public func touches(_ table: String) -> Bool { isOverflow || tables[table] != nil }
}

extension ChangeSet {
    /// Writes the set under snake_case keys, the date as an ISO 8601 string, whatever the
    /// encoder's strategies.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: SnakeCaseKey.self)
        try container.encode(cursor, forKey: "cursor")
        try container.encode(transaction, forKey: "transaction")
        try container.encode(date, forKey: "date")
        // Table names are data, not keys of ours: written as they are, in name order.
        var tablesContainer = container.nestedContainer(keyedBy: SnakeCaseKey.self, forKey: SnakeCaseKey("tables"))
        for (name, changes) in tables.sorted(by: { $0.key < $1.key }) {
            try tablesContainer.encode(changes, forKey: SnakeCaseKey(name))
        }
        try container.encode(isOverflow, forKey: "is_overflow")
    }

    /// Reads what `encode(to:)` writes. - Throws: `DecodingError` naming a missing or bad key.
    public init(from decoder: Decoder) throws {
        let object = try SnakeCaseObject(decoder)
        self.init(cursor: try object.decode(Int64.self, forKey: "cursor"),
                  transaction: try object.decode(Int64.self, forKey: "transaction"),
                  date: try object.decodeDate(forKey: "date"),
                  tables: try object.decode([String: TableChanges].self, forKey: "tables"),
                  isOverflow: try object.decode(Bool.self, forKey: "is_overflow"))
    }
}

/// The net changes to one table within a transaction: a row inserted then deleted is in neither;
/// inserted then updated is inserted; deleted then inserted again (REPLACE) is updated.
public struct TableChanges: Sendable, Hashable, Codable {
    /// The ids of the rows the transaction added.
    public var inserted = RowIDs()
    /// The ids of the rows that existed before and after the transaction and were changed.
    public var updated = RowIDs()
    /// The ids of the rows the transaction removed.
    public var deleted = RowIDs()

    /// The changes with these ids (none by default).
    public init(inserted: RowIDs = RowIDs(), updated: RowIDs = RowIDs(), deleted: RowIDs = RowIDs()) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Whether no row was inserted, updated or deleted.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}
