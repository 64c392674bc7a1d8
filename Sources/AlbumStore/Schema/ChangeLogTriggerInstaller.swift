internal import AlbumSQLite

/// Brings a library file's generated triggers in line with what `ChangeLogTriggers` generates
/// for the observed tables and `OrderStatisticsTriggers` for the ordered ones: creates missing
/// ones, replaces ones whose SQL differs (an older generator's, or one edited or dropped in the
/// sqlite3 shell) and drops those of tables no longer observed or ordered.
///
/// It runs at every open, so it must cost next to nothing when there is nothing to do: one read
/// of `sqlite_schema` (already in memory once the connection has parsed the schema) and no write
/// transaction at all, so opening an up-to-date library writes nothing and takes no lock.
/// A file without a `change_log` table (a test's own migrations) gets no triggers.
struct ChangeLogTriggerInstaller: Sendable {
    /// What the file needs: triggers to drop, then triggers to create (a trigger to replace is
    /// in both).
    struct Plan: Sendable, Equatable {
        var drop: [String] = []
        var create: [GeneratedTrigger] = []

        var isEmpty: Bool { drop.isEmpty && create.isEmpty }
    }

    /// The tables the machinery serves; the observed ones get triggers.
    let tables: [TableDescription]

    init(tables: [TableDescription] = TableDescription.all) { self.tables = tables }

    /// Installs what `plan` finds missing or outdated, in one transaction (a savepoint inside a
    /// caller's transaction). Returns whether it changed anything.
    @discardableResult
    func install(in connection: Connection) throws -> Bool {
        guard try !plan(in: connection).isEmpty else { return false }
        return try connection.transaction(.immediate) {
            // Another process may have installed them meanwhile: plan again under the write lock.
            let plan = try plan(in: connection)
            for name in plan.drop {
                // `main.`: a temporary trigger of the same name on this connection is not ours.
                try connection.execute("DROP TRIGGER IF EXISTS main.\(ChangeLogTriggers.identifier(name))")
            }
            for trigger in plan.create { try connection.execute(trigger.sql) }
            return !plan.isEmpty
        }
    }

    /// What the file needs, from one read of its schema.
    /// - Throws: `SchemaError.cannotObserve` for an observed table without integer row ids.
    func plan(in connection: Connection) throws -> Plan {
        let schema = try ChangeLogSchema(observed: observedNames, ordered: orderedNames, in: connection)
        var plan = Plan()
        var expected = Set<String>()
        var generated: [GeneratedTrigger] = []
        for table in tables where table.isObserved && schema.hasChangeLog {
            // A described table the migrations have not created (yet): nothing to log.
            guard let facts = schema.tables[table.name.lowercased()] else { continue }
            generated += ChangeLogTriggers(
                table: table.name, rowIDColumn: try Self.rowIDColumn(of: table.name, facts, path: connection.path),
                numbersEachEntry: table.isNavigation).triggers
        }
        for table in tables {
            // Before the migration that creates its statistics: nothing to count into.
            guard let order = table.order,
                  [table.name, order.blocks].allSatisfy({ schema.existing.contains($0.lowercased()) }) else { continue }
            generated += OrderStatisticsTriggers(
                table: table.name, order: order, keepsTotal: schema.existing.contains(order.total.lowercased())).triggers
        }
        for trigger in generated {
            let key = trigger.name.lowercased()
            expected.insert(key)
            switch schema.triggers[key]?.sql {
            case trigger.sql?: continue
            case nil: plan.create.append(trigger)
            case _?:
                plan.drop.append(trigger.name)
                plan.create.append(trigger)
            }
        }
        let observed = Set(observedNames.map { $0.lowercased() })
        let ordered = Set(tables.filter { $0.order != nil }.map { $0.name.lowercased() })
        for (key, trigger) in schema.triggers.sorted(by: { $0.key < $1.key }) where !expected.contains(key) {
            let table = trigger.table.lowercased()
            // Only triggers named as we name them, on a table we no longer observe (or order):
            // any other trigger belongs to a migration (or a user) and is left alone.
            let log = ChangeOperation.allCases.contains { ChangeLogTriggers.name(of: table, $0) == key }
            let order = ChangeOperation.allCases.contains { OrderStatisticsTriggers.name(of: table, $0) == key }
            if log && schema.hasChangeLog && !observed.contains(table) || order && !ordered.contains(table) {
                plan.drop.append(trigger.name)
            }
        }
        return plan
    }

    private var observedNames: [String] { tables.filter(\.isObserved).map(\.name) }
    /// The ordered tables and their statistics tables.
    private var orderedNames: [String] {
        tables.flatMap { table in table.order.map { [table.name, $0.blocks, $0.total] } ?? [] }
    }

    /// The column the log takes a row's id from: the INTEGER PRIMARY KEY (the rowid itself, or
    /// the integer key of a WITHOUT ROWID table), else the rowid. A WITHOUT ROWID table keyed
    /// otherwise has no integer id to log: its triggers would make every insert fail.
    private static func rowIDColumn(of table: String, _ facts: ChangeLogSchema.Table, path: String) throws -> String {
        if let column = facts.integerPrimaryKey { return column }
        guard !facts.isWithoutRowID else {
            throw SchemaError.cannotObserve(
                path: path, table: table,
                reason: "it is a WITHOUT ROWID table without an INTEGER PRIMARY KEY, and the change log records integer row ids")
        }
        // `rowid` names the rowid unless a column takes that name; observed tables do not.
        return "rowid"
    }
}
