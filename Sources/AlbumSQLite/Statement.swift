import CSQLite

/// A prepared statement: bind parameters, step through rows, reset, reuse.
///
/// Parameter indexes are 1-based and column indexes 0-based, as in SQLite's C API.
/// A statement belongs to the connection that prepared it and, like it, to one thread at a time.
/// It keeps that connection's database handle open: it works on after the `Connection` object
/// is gone. Rows are lent to closures (`forEach`, `map`, `first`, `withCurrentRow`).
/// Related SQLite documentation: https://sqlite.org/c3ref/stmt.html
public final class Statement {
    public let sql: String
    @usableFromInline let handle: OpaquePointer
    @usableFromInline let connection: ConnectionHandle
    /// Where the statement stands, for the rows it lends; see `Position`.
    @usableFromInline let position: UnsafeMutablePointer<Position>
    private var columnIndexes: [String: Int32]?
    /// One reusable buffer per parameter holding the text last bound there, so that binding a
    /// String costs a memcpy instead of SQLite's malloc + copy + free (`SQLITE_TRANSIENT`).
    @usableFromInline let textBuffers: UnsafeMutablePointer<TextBuffer>
    @usableFromInline let textBufferCount: Int32

    @usableFromInline struct TextBuffer {
        @usableFromInline var base: UnsafeMutableRawPointer?
        @usableFromInline var capacity: Int
    }

    /// The statement's progress as its rows see it.
    ///
    /// It lives outside the object, behind a pointer the statement owns: access to a stored
    /// `var` of a class is checked for exclusivity at run time wherever the optimizer cannot
    /// prove it safe, as in code inlined into other modules, and the generation is read for
    /// every column of every row.
    @usableFromInline struct Position {
        /// Bumped by every step and reset: a `Row` made at another generation is stale.
        @usableFromInline var generation: UInt64
        /// Set while `forEach`, `map` or `first` lends rows, so that a nested run of the same
        /// statement fails instead of resetting it under the outer loop.
        @usableFromInline var isLending: Bool
        /// False only when SQLite surely does not hold the statement mid-run (reset, or stepped
        /// to the end): then the text buffers may be rewritten without asking `sqlite3_stmt_busy`.
        /// An error may leave the statement running (`SQLITE_BUSY` does), so it counts as running.
        @usableFromInline var mayBeRunning: Bool
    }

    init(sql: String, connection: ConnectionHandle) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.sqlite, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        try check(code, connection.sqlite, sql: sql)
        guard let handle else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "no statement in SQL", sql: sql)
        }
        self.sql = sql
        self.handle = handle
        self.connection = connection
        position = .allocate(capacity: 1)
        position.initialize(to: Position(generation: 0, isLending: false, mayBeRunning: false))
        textBufferCount = sqlite3_bind_parameter_count(handle)
        textBuffers = .allocate(capacity: Int(textBufferCount))
        textBuffers.initialize(repeating: TextBuffer(base: nil, capacity: 0), count: Int(textBufferCount))
    }

    deinit {
        // Finalize first: until then SQLite may point into the text buffers. The connection's
        // handle is released after this body, so it is still open here.
        sqlite3_finalize(handle)
        for slot in 0..<Int(textBufferCount) { textBuffers[slot].base?.deallocate() }
        textBuffers.deallocate()
        position.deallocate()
    }

    /// The error for result code `code`, read from the connection; out of line to keep the
    /// inlined hot paths small.
    @usableFromInline
    func failure(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, connection: connection.sqlite, sql: sql)
    }

    // MARK: Binding

    /// Binds `value` to the 1-based parameter `index`.
    @inlinable @inline(__always)
    public func bind(_ value: some Bindable, at index: Int32) throws(SQLiteError) {
        let code = value.bind(to: handle, at: index)
        if code != SQLITE_OK { throw failure(code) }
    }

    /// Binds `value` as text to the 1-based parameter `index`.
    ///
    /// Short texts are copied into a buffer the statement owns and bound with `SQLITE_STATIC`.
    @inlinable @inline(__always)
    public func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        // The UTF-8 view lends native and small strings' bytes without the copy (a retain and a
        // release) that `var text = value; text.withUTF8` costs.
        let code = value.utf8.withContiguousStorageIfAvailable { bindText($0, at: index) }
            ?? value.bind(to: handle, at: index)
        if code != SQLITE_OK { throw failure(code) }
    }

    /// Binds `value` as text to the 1-based parameter `index`; `nil` binds NULL.
    @inlinable @inline(__always)
    public func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        try bind(value, at: index)
    }

    /// Copies `utf8` into the buffer of parameter `index` and binds it with `SQLITE_STATIC`.
    ///
    /// The common case, a buffer already large enough on a statement known not to be running,
    /// is inlined into the caller; everything else takes `bindTextSlowly`.
    @inlinable @inline(__always)
    func bindText(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int32) -> Int32 {
        if index >= 1 && index <= textBufferCount && !position.pointee.mayBeRunning,
           let source = utf8.baseAddress {
            let slot = textBuffers + Int(index &- 1)
            if utf8.count > 0 && utf8.count <= slot.pointee.capacity, let base = slot.pointee.base {
                copyBytes(from: source, to: base, count: utf8.count)
                // A nil destructor is SQLITE_STATIC: the buffer outlives the binding.
                return sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(utf8.count), nil)
            }
        }
        return bindTextSlowly(utf8, at: index)
    }

    @usableFromInline @inline(never)
    func bindTextSlowly(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int32) -> Int32 {
        // Large texts would pin memory; an unknown index, or a statement mid-run (SQLite refuses
        // the bind there but may still read the old value), must leave the buffers untouched.
        guard utf8.count <= 4096, index >= 1, index <= textBufferCount, sqlite3_stmt_busy(handle) == 0,
              let source = utf8.baseAddress, !utf8.isEmpty
        else { return bindTextCopiedBySQLite(utf8, at: index) }
        let slot = textBuffers + Int(index - 1)
        let old = slot.pointee
        let reused = old.capacity >= utf8.count ? old.base : nil
        let capacity = reused == nil ? max(64, utf8.count) : old.capacity
        let base = reused ?? .allocate(byteCount: capacity, alignment: 1)
        base.copyMemory(from: source, byteCount: utf8.count)
        let code = sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(utf8.count), nil)
        if reused == nil {
            // Keep whichever buffer SQLite now points into.
            if code == SQLITE_OK {
                old.base?.deallocate()
                slot.pointee = TextBuffer(base: base, capacity: capacity)
            } else {
                base.deallocate()
            }
        }
        return code
    }

    /// Binds `utf8` with `SQLITE_TRANSIENT`: SQLite takes its own copy.
    private func bindTextCopiedBySQLite(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int32) -> Int32 {
        // An empty buffer may have no address, and a NULL pointer would bind NULL.
        guard let base = utf8.baseAddress, !utf8.isEmpty else { return sqlite3_bind_text(handle, index, "", 0, nil) }
        return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
            sqlite3_bind_text64(handle, index, $0, UInt64(utf8.count), csqlite_transient(), UInt8(SQLITE_UTF8))
        }
    }

    /// Binds SQL NULL to the 1-based parameter `index`.
    public func bindNull(at index: Int32) throws(SQLiteError) {
        let code = sqlite3_bind_null(handle, index)
        if code != SQLITE_OK { throw failure(code) }
    }

    /// Binds `value` to a named parameter, written as in the SQL: `:title`, `@title` or `$title`.
    public func bind(_ value: some Bindable, named name: String) throws(SQLiteError) {
        try bind(value, at: try parameterIndex(name))
    }

    /// Binds values to parameters 1, 2, 3... in order, after clearing every earlier binding;
    /// `nil` binds NULL.
    ///
    /// - Throws: `SQLITE_RANGE` unless there is exactly one value per parameter, and
    ///   `SQLITE_MISUSE` when the statement is running (stepped and not reset); the bindings are
    ///   untouched then.
    public func bind(_ values: [(any Bindable)?]) throws(SQLiteError) {
        try checkNotRunning()
        guard values.count == Int(textBufferCount) else {
            let takes = textBufferCount == 1 ? "1 argument" : "\(textBufferCount) arguments"
            throw SQLiteError(extendedCode: SQLITE_RANGE, message: "statement takes \(takes), \(values.count) given", sql: sql)
        }
        // A value left from an earlier run must never be read as this run's.
        clearBindings()
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds values to named parameters, after clearing every earlier binding; `nil` binds NULL.
    ///
    /// - Throws: `SQLITE_RANGE` when a name is not a parameter of the statement or a parameter
    ///   has no value, and `SQLITE_MISUSE` when the statement is running; the bindings are
    ///   untouched then.
    public func bind(named values: [String: (any Bindable)?]) throws(SQLiteError) {
        try checkNotRunning()
        var indexed: [(index: Int32, value: (any Bindable)?)] = []
        indexed.reserveCapacity(values.count)
        for (name, value) in values {
            indexed.append((try parameterIndex(name), value))
        }
        // Distinct names are distinct parameters, so fewer names than parameters leaves one out.
        if indexed.count < Int(textBufferCount) {
            let given = Set(indexed.map(\.index))
            let missing = (1...textBufferCount).filter { !given.contains($0) }.map(parameterName)
            throw SQLiteError(
                extendedCode: SQLITE_RANGE,
                message: "no value for parameter\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))",
                sql: sql)
        }
        clearBindings()
        for (index, value) in indexed {
            try bind(value, at: index)
        }
    }

    /// Clearing the bindings of a statement mid-run would free values SQLite may still read
    /// (`sqlite3_clear_bindings` does not refuse, unlike the `sqlite3_bind_*` calls).
    private func checkNotRunning() throws(SQLiteError) {
        guard sqlite3_stmt_busy(handle) == 0 else {
            throw SQLiteError(
                extendedCode: SQLITE_MISUSE, message: "the statement is running: reset it before binding", sql: sql)
        }
    }

    private func bind(_ value: (any Bindable)?, at index: Int32) throws(SQLiteError) {
        let code = value.map { $0.bind(to: handle, at: index) } ?? sqlite3_bind_null(handle, index)
        if code != SQLITE_OK { throw failure(code) }
    }

    private func parameterIndex(_ name: String) throws(SQLiteError) -> Int32 {
        let index = sqlite3_bind_parameter_index(handle, name)
        guard index > 0 else {
            throw SQLiteError(extendedCode: SQLITE_RANGE, message: "no parameter named \(name)", sql: sql)
        }
        return index
    }

    /// The name of parameter `index` as written in the SQL, `?N` for an anonymous one.
    private func parameterName(_ index: Int32) -> String {
        sqlite3_bind_parameter_name(handle, index).map { String(cString: $0) } ?? "?\(index)"
    }

    /// The number of parameters the SQL declares.
    public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    // MARK: Stepping

    /// Advances to the next row; `false` when the statement is done.
    ///
    /// Read the row with `withCurrentRow`, or let `forEach` do the stepping.
    @inlinable @inline(__always)
    public func step() throws(SQLiteError) -> Bool {
        // The row a Row was lent for ends here, whatever the outcome.
        position.pointee.generation &+= 1
        if connection.isRecording { return try stepFollowingRecorders() }
        let code = sqlite3_step(handle)
        position.pointee.mayBeRunning = code != SQLITE_DONE
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw failure(code)
    }

    /// `step` while a `ChangeRecorder` runs. A statement that fails is undone by SQLite
    /// (the default ABORT conflict resolution: every change it made, in triggers too), which
    /// the pre-update hook does not report, so the recorders are rolled back with it. A
    /// transaction that the failure rolls back is followed by `Connection.transaction`.
    /// `OR FAIL` and `RAISE(FAIL)` keep the rows changed before the failure and would be
    /// undone here too: AlbumStore's SQL uses neither.
    @usableFromInline
    func stepFollowingRecorders() throws(SQLiteError) -> Bool {
        let mark = sqlite3_stmt_readonly(handle) == 0 ? connection.markRecordings() : nil
        defer { connection.releaseRecordings(mark) }
        let code = sqlite3_step(handle)
        position.pointee.mayBeRunning = code != SQLITE_DONE
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        if let mark { connection.rollBackRecordings(to: mark) }
        throw failure(code)
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    @inlinable @inline(__always)
    public func reset() {
        position.pointee.generation &+= 1
        // sqlite3_reset repeats the last step's error, which step() already threw.
        sqlite3_reset(handle)
        position.pointee.mayBeRunning = false
    }

    /// Sets every parameter back to NULL; a statement mid-run is reset first.
    public func clearBindings() {
        // SQLite may still read the old values until the statement is reset, and
        // sqlite3_clear_bindings would free them regardless.
        if sqlite3_stmt_busy(handle) != 0 { reset() }
        sqlite3_clear_bindings(handle)
    }

    /// Runs the statement to completion with its current bindings, then resets it.
    @inlinable
    public func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    /// Binds `arguments` to parameters 1, 2, 3..., runs the statement to completion and resets it.
    ///
    /// - Throws: `SQLITE_RANGE` unless there is exactly one argument per parameter.
    public func run(_ arguments: (any Bindable)?...) throws(SQLiteError) {
        try checkNotLending()
        reset()
        try bind(arguments)
        try run()
    }

    // MARK: Rows

    /// Calls `body` with each row, from the first, with the current bindings; then resets.
    ///
    /// The row is lent for the call only: read the values you need inside `body` (`row.values`
    /// copies them all). Reading it after the statement moved on traps.
    /// - Throws: `SQLITE_MISUSE` when the statement is already lending rows (a nested `forEach`
    ///   on the same statement); errors of stepping and of `body`.
    @inlinable
    public func forEach(_ body: (borrowing Row) throws -> Void) throws {
        try beginLending()
        defer { endLending() }
        var row = Row(statement: self, generation: 0)
        while try step() {
            row.generation = position.pointee.generation
            try body(row)
        }
    }

    /// Binds `arguments` (exactly one per parameter), calls `body` with each row, and resets.
    @inlinable
    public func forEach(_ arguments: [(any Bindable)?], _ body: (borrowing Row) throws -> Void) throws {
        try bindForRun(arguments)
        try forEach(body)
    }

    /// Maps every row, with the current bindings, through `transform`.
    @inlinable
    public func map<T>(_ transform: (borrowing Row) throws -> T) throws -> [T] {
        var result: [T] = []
        try forEach { result.append(try transform($0)) }
        return result
    }

    /// Binds `arguments` (exactly one per parameter) and maps every row through `transform`.
    @inlinable
    public func map<T>(_ arguments: [(any Bindable)?], _ transform: (borrowing Row) throws -> T) throws -> [T] {
        try bindForRun(arguments)
        return try map(transform)
    }

    /// The first row, with the current bindings, mapped through `transform`, or `nil` when there
    /// is none; the statement is reset afterwards.
    @inlinable
    public func first<T>(_ transform: (borrowing Row) throws -> T) throws -> T? {
        try beginLending()
        defer { endLending() }
        guard try step() else { return nil }
        return try transform(Row(statement: self, generation: position.pointee.generation))
    }

    /// Binds `arguments` (exactly one per parameter) and maps the first row through `transform`.
    @inlinable
    public func first<T>(_ arguments: [(any Bindable)?], _ transform: (borrowing Row) throws -> T) throws -> T? {
        try bindForRun(arguments)
        return try first(transform)
    }

    /// Lends the row the last `step()` stopped on to `body`, for code that steps by hand.
    ///
    /// The row is valid until the next `step()` or `reset()`; reading it later traps. Its
    /// columns read as NULL when the last step returned `false`.
    @inlinable
    public func withCurrentRow<T, E: Error>(_ body: (borrowing Row) throws(E) -> T) throws(E) -> T {
        try body(Row(statement: self, generation: position.pointee.generation))
    }

    /// Whether `forEach`, `map` or `first` is lending this statement's rows right now.
    var isLending: Bool { position.pointee.isLending }

    /// Resets and binds `arguments`, for a run that lends rows.
    @usableFromInline
    func bindForRun(_ arguments: [(any Bindable)?]) throws(SQLiteError) {
        // Rebinding a statement that is lending rows would fail in SQLite; say why instead.
        try checkNotLending()
        reset()
        try bind(arguments)
    }

    /// Starts lending rows from the first one.
    @usableFromInline
    func beginLending() throws(SQLiteError) {
        try checkNotLending()
        reset()
        position.pointee.isLending = true
    }

    @usableFromInline
    func endLending() {
        reset()
        position.pointee.isLending = false
    }

    private func checkNotLending() throws(SQLiteError) {
        guard !position.pointee.isLending else {
            throw SQLiteError(
                extendedCode: SQLITE_MISUSE,
                message: "the statement is already running its rows: a nested run of one statement would reset it",
                sql: sql)
        }
    }

    // MARK: Columns

    /// The number of columns in a result row.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name of column `index`, as SQLite reports it (the `AS` alias when there is one).
    public func columnName(at index: Int32) -> String {
        sqlite3_column_name(handle, index).map { String(cString: $0) } ?? "#\(index)"
    }

    /// The 0-based index of the column named `name` (case-insensitive).
    public func columnIndex(_ name: String) throws(SQLiteError) -> Int32 {
        let indexes = columnIndexes ?? {
            // The first column of a name wins, as in SQLite's own lookups.
            var indexes: [String: Int32] = [:]
            for index in 0..<columnCount where indexes[columnName(at: index).lowercased()] == nil {
                indexes[columnName(at: index).lowercased()] = index
            }
            columnIndexes = indexes
            return indexes
        }()
        guard let index = indexes[name.lowercased()] else {
            throw SQLiteError(extendedCode: SQLITE_RANGE, message: "no column named \(name)", sql: sql)
        }
        return index
    }
}
