import CSQLite

/// One connection to a SQLite database.
///
/// A connection, its statements and its hooks belong to one thread at a time: it is not
/// `Sendable`. `Database` shares connections safely across threads and tasks.
/// Path may be a file path, `:memory:`, or a `file:` URI (URI filenames are enabled).
/// Related SQLite documentation: https://sqlite.org/c3ref/open.html
public final class Connection {
    public let path: String
    /// Owns the sqlite3*: statements, blobs and recorders hold it too, never this object, so the
    /// statement cache below makes no retain cycle and the handle closes after the last of them.
    let database: ConnectionHandle
    /// The cached statements by SQL text: the first few in a list searched in order, the rest in
    /// a dictionary, made only when needed (a command's start prepares a handful, and a first
    /// `[String: Statement]` costs the Swift runtime a scan of the binary's conformances). The
    /// dictionary starts over at `statementCacheCapacity`: a long-running server sees ever new
    /// query shapes.
    private var firstStatements: [Statement] = []
    private var statementCache: [String: Statement] = [:]
    static let statementCacheCapacity = 256
    /// The same statements by the address of the SQL text last used to find them
    /// (`cachedStatement`): a direct-mapped table, where a statement found at another address
    /// takes the slot. Not a dictionary: no hashing on the hot path, and no `[Int: Statement]`,
    /// whose first use costs the Swift runtime a scan of the binary's conformances.
    private var statementsByAddress = [(address: Int, statement: Statement)?](repeating: nil, count: 256)
    var savepointDepth = 0
    /// The tables' layouts for applying changesets (`ChangesetApplier`), for one schema version.
    var changesetLayouts: TableLayouts?

    /// The sqlite3* itself, for the calls this module makes on it.
    var handle: OpaquePointer { database.sqlite }

    /// Opens (and by default creates) the database at `path` and applies `options`.
    public init(path: String, options: ConnectionOptions = .default) throws(SQLiteError) {
        var flags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch options.mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(code: code, connection: handle)
            sqlite3_close_v2(handle)
            throw SQLiteError(extendedCode: error.extendedCode, message: "\(error.message): \(path)", systemErrno: error.systemErrno)
        }
        self.path = path
        // From here on the handle object closes the connection, also when configure throws.
        self.database = ConnectionHandle(handle)
        sqlite3_extended_result_codes(handle, 1)
        // Debian builds SQLite without lookaside: every statement compiled (by the session
        // extension on each command, say) then pays malloc's lock. 1200-byte slots as upstream.
        _ = csqlite_enable_lookaside(handle, 1200, 100)
        try configure(options)
    }

    private func configure(_ options: ConnectionOptions) throws(SQLiteError) {
        sqlite3_busy_timeout(handle, Int32(options.busyTimeout.components.seconds * 1000
            + options.busyTimeout.components.attoseconds / 1_000_000_000_000_000))
        if let journalMode = options.journalMode, options.mode != .readOnly {
            try setJournalMode(journalMode)
        }
        if options.mode != .readOnly && !options.queryOnly { try execute("PRAGMA synchronous = \(options.synchronous.rawValue)") }
        try execute("PRAGMA foreign_keys = \(options.foreignKeys ? "ON" : "OFF")")
        if let cacheSizeKiB = options.cacheSizeKiB { try execute("PRAGMA cache_size = -\(cacheSizeKiB)") }
        if options.recursiveTriggers { try execute("PRAGMA recursive_triggers = ON") }
        if options.queryOnly { try execute("PRAGMA query_only = ON") }
        try options.setUp?(self)
    }

    /// Sets process-wide SQLite options; call it first thing in `main`, or not at all.
    ///
    /// Turning memory statistics off is SQLite's own advice for speed: they take a global mutex
    /// on every allocation. The setting is the whole process's, so this layer never makes it by
    /// itself: only the host program knows whether it owns SQLite. It takes effect only before
    /// SQLite initializes, that is before any connection of any library in the process opens;
    /// later it changes nothing and returns `false`. An app that also uses SQLite through Core
    /// Data, GRDB or another library in the same process should not call it.
    /// Related SQLite documentation: https://sqlite.org/c3ref/config.html
    ///
    /// - Parameter memoryStatistics: Whether SQLite counts its memory use (`SQLITE_CONFIG_MEMSTATUS`).
    /// - Returns: Whether the setting took effect.
    @discardableResult
    public static func configureProcess(memoryStatistics: Bool) -> Bool {
        csqlite_config_memstatus(memoryStatistics ? 1 : 0) == SQLITE_OK
    }

    /// Switches the journal mode. WAL rewrites the file header, so do it only on files you own.
    public func setJournalMode(_ mode: ConnectionOptions.JournalMode) throws(SQLiteError) {
        try execute("PRAGMA journal_mode = \(mode.rawValue)")
    }

    // MARK: Running SQL

    /// Runs one or more `;`-separated statements that take no parameters.
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) }
            sqlite3_free(message)
            var error = SQLiteError(code: code, connection: handle, sql: sql)
            if let text { error.message = text }
            throw error
        }
    }

    /// Prepares a statement the caller owns.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(sql: sql, connection: database)
    }

    /// A prepared statement from this connection's cache, reset and with its bindings cleared.
    ///
    /// Reuse is what makes repeated statements fast: preparing costs more than running a small one.
    /// While the cached statement is iterating rows (inside `forEach`, `map`, `first` or a
    /// `query` of the same SQL), a fresh one is prepared instead: resetting it would pull the
    /// rows out from under the outer loop.
    public func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        // By the address of the text first: the SQL a program runs again is nearly always the
        // same string (a literal, or one built once and kept), and hashing a few hundred bytes
        // for the dictionary cost more than binding and running a small statement. The text is
        // compared too (free when it is the very same string), so an address reused by another
        // string never finds the wrong statement.
        let address = sql.utf8.count > 15 ? sql.utf8.withContiguousStorageIfAvailable { Int(bitPattern: $0.baseAddress) } : nil
        if let address, let slot = statementsByAddress[Self.slot(of: address)], slot.address == address,
           case let statement = slot.statement, statement.sql == sql {
            guard !statement.isLending else { return try prepare(sql) }
            statement.reset()
            statement.clearBindings()
            return statement
        }
        if let statement = firstStatements.first(where: { $0.sql == sql }) ?? (statementCache.isEmpty ? nil : statementCache[sql]) {
            if let address { remember(statement, at: address) }
            guard !statement.isLending else { return try prepare(sql) }
            statement.reset()
            statement.clearBindings()
            return statement
        }
        let statement = try prepare(sql)
        if firstStatements.count < 16 {
            firstStatements.append(statement)
        } else {
            if statementCache.count >= Self.statementCacheCapacity { statementCache.removeAll() }
            statementCache[sql] = statement
        }
        if let address { remember(statement, at: address) }
        return statement
    }

    private func remember(_ statement: Statement, at address: Int) {
        statementsByAddress[Self.slot(of: address)] = (address, statement)
    }

    /// The table slot of a text's address: its bits above the 16-byte alignment, folded.
    private static func slot(of address: Int) -> Int { (address >> 4 ^ address >> 12) & 255 }

    /// Runs a cached statement with positional `arguments`, one per parameter; `nil` binds NULL.
    public func run(_ sql: String, _ arguments: (any Bindable)?...) throws(SQLiteError) {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        try statement.run()
    }

    /// Runs a cached statement with named arguments, one per parameter, e.g. `[":title": "Low"]`.
    public func run(_ sql: String, named arguments: [String: (any Bindable)?]) throws(SQLiteError) {
        let statement = try cachedStatement(sql)
        try statement.bind(named: arguments)
        try statement.run()
    }

    /// Maps every row of a cached query through `transform`.
    ///
    /// A row is lent to `transform` only for the call: return values read from it, not the row.
    public func query<T>(_ sql: String, _ arguments: (any Bindable)?..., as transform: (borrowing Row) throws -> T) throws -> [T] {
        try cachedStatement(sql).map(arguments, transform)
    }

    /// The first row of a cached query mapped through `transform`, or `nil` when there is none.
    public func first<T>(_ sql: String, _ arguments: (any Bindable)?..., as transform: (borrowing Row) throws -> T) throws -> T? {
        try cachedStatement(sql).first(arguments, transform)
    }

    /// The first column of the first row, or `nil` when there is no row or it is NULL.
    public func scalar<T: ColumnDecodable>(_ sql: String, _ arguments: (any Bindable)?..., as type: T.Type = T.self) throws -> T? {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        return try statement.step() ? T.decode(from: statement.handle, at: 0) : nil
    }

    // MARK: State

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes64(handle)) }
    /// Rows changed since the connection opened.
    public var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }
    /// The rowid of the last successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    /// Whether a transaction is open (SQLite is not in autocommit mode).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
    /// Whether the database lives in memory (or in a temporary file) rather than in a named file.
    public var isInMemory: Bool { sqlite3_db_filename(handle, "main").map { $0.pointee == 0 } ?? true }
    /// Whether the connection cannot write (opened read-only, or `query_only`).
    public var isReadOnly: Bool {
        // sqlite3_db_readonly does not see PRAGMA query_only.
        sqlite3_db_readonly(handle, "main") == 1 || (try? scalar("PRAGMA query_only", as: Bool.self)) == true
    }

    /// `PRAGMA data_version`: changes when *another* connection, in any process, commits.
    ///
    /// Compare values read on the same connection; its own commits do not change it.
    /// Related SQLite documentation: https://sqlite.org/pragma.html#pragma_data_version
    public func dataVersion() throws -> Int64 {
        try scalar("PRAGMA data_version") ?? 0
    }

    /// The version of the linked SQLite library, e.g. "3.40.1".
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}
