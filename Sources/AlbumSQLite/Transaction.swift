import CSQLite

/// How a transaction takes its locks.
public enum TransactionKind: String, Sendable {
    /// Takes locks when first needed: right for reads.
    case deferred = "DEFERRED"
    /// Takes the write lock at once: right for writes. In WAL mode a deferred transaction that
    /// later writes fails with `SQLITE_BUSY_SNAPSHOT` at once, whatever the busy timeout.
    case immediate = "IMMEDIATE"
    case exclusive = "EXCLUSIVE"

    /// The statement that begins it, a literal: built by interpolation it cost a string a write.
    var beginSQL: String {
        switch self {
        case .deferred: "BEGIN DEFERRED"
        case .immediate: "BEGIN IMMEDIATE"
        case .exclusive: "BEGIN EXCLUSIVE"
        }
    }
}

extension Connection {
    /// Runs `body` in a transaction that commits when it returns and rolls back when it throws.
    ///
    /// Inside another transaction it becomes a savepoint, so a throw undoes only this part.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        if isInTransaction { return try savepoint(body) }
        try cachedStatement(kind.beginSQL).run()
        // Change recorders are not told of a rollback: they are rolled back with the transaction.
        let mark = database.markRecordings()
        defer { database.releaseRecordings(mark) }
        let result: T
        do {
            result = try body()
            try cachedStatement("COMMIT").run()
        } catch {
            // A failed COMMIT may leave the transaction open; a throw inside body surely does.
            if isInTransaction { try? cachedStatement("ROLLBACK").run() }
            if !isInTransaction { database.rollBackRecordings(to: mark) }
            throw error
        }
        return result
    }

    /// Runs `body` in a deferred (read) transaction: every read sees one consistent snapshot.
    public func read<T>(_ body: () throws -> T) throws -> T {
        try transaction(.deferred, body)
    }

    /// Runs `body` in a savepoint: released when it returns, rolled back when it throws.
    /// Related SQLite documentation: https://sqlite.org/lang_savepoint.html
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "albumstore_\(savepointDepth)"
        try cachedStatement("SAVEPOINT \(name)").run()
        // Change recorders are not told of a ROLLBACK TO: they are rolled back with it.
        let mark = database.markRecordings()
        defer { database.releaseRecordings(mark) }
        do {
            let result = try body()
            try cachedStatement("RELEASE \(name)").run()
            return result
        } catch {
            if (try? cachedStatement("ROLLBACK TO \(name)").run()) != nil { database.rollBackRecordings(to: mark) }
            try? cachedStatement("RELEASE \(name)").run()
            throw error
        }
    }
}
