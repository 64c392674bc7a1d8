import CSQLite

/// A prepared statement: bind parameters, step through rows, reset, reuse.
///
/// Parameter indexes are 1-based and column indexes 0-based, as in SQLite's C API.
/// A statement belongs to the connection that prepared it and, like it, to one thread at a time.
/// Related SQLite documentation: https://sqlite.org/c3ref/stmt.html
public final class Statement {
    public let sql: String
    @usableFromInline let handle: OpaquePointer
    @usableFromInline let connection: OpaquePointer
    private var columnIndexes: [String: Int32]?
    /// One reusable buffer per parameter holding the text last bound there, so that binding a
    /// String costs a memcpy instead of SQLite's malloc + copy + free (`SQLITE_TRANSIENT`).
    @usableFromInline let textBuffers: UnsafeMutablePointer<TextBuffer>
    @usableFromInline let textBufferCount: Int32

    @usableFromInline struct TextBuffer {
        @usableFromInline var base: UnsafeMutableRawPointer?
        @usableFromInline var capacity: Int
    }

    init(sql: String, connection: OpaquePointer) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        try check(code, connection, sql: sql)
        guard let handle else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "no statement in SQL", sql: sql)
        }
        self.sql = sql
        self.handle = handle
        self.connection = connection
        textBufferCount = sqlite3_bind_parameter_count(handle)
        textBuffers = .allocate(capacity: Int(textBufferCount))
        textBuffers.initialize(repeating: TextBuffer(base: nil, capacity: 0), count: Int(textBufferCount))
    }

    deinit {
        // Finalize first: until then SQLite may point into the text buffers.
        sqlite3_finalize(handle)
        for slot in 0..<Int(textBufferCount) { textBuffers[slot].base?.deallocate() }
        textBuffers.deallocate()
    }

    // MARK: Binding

    /// Binds `value` to the 1-based parameter `index`.
    @inlinable @inline(__always)
    public func bind(_ value: some Bindable, at index: Int32) throws(SQLiteError) {
        let code = value.bind(to: handle, at: index)
        if code != SQLITE_OK { throw SQLiteError(code: code, connection: connection, sql: sql) }
    }

    /// Binds `value` as text to the 1-based parameter `index`.
    ///
    /// Short texts are copied into a buffer the statement owns and bound with `SQLITE_STATIC`.
    @inlinable @inline(__always)
    public func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        var text = value
        let code = text.withUTF8 { bindText($0, at: index) } ?? value.bind(to: handle, at: index)
        if code != SQLITE_OK { throw SQLiteError(code: code, connection: connection, sql: sql) }
    }

    /// Binds `value` as text to the 1-based parameter `index`; `nil` binds NULL.
    @inlinable @inline(__always)
    public func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        try bind(value, at: index)
    }

    /// Copies `utf8` into the buffer of parameter `index` and binds it with `SQLITE_STATIC`;
    /// `nil` when the text should take SQLite's own copy instead.
    @usableFromInline
    func bindText(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int32) -> Int32? {
        // Large texts would pin memory; an unknown index, or a statement mid-run (SQLite refuses
        // the bind there but may still read the old value), must leave the buffers untouched.
        guard utf8.count <= 4096, index >= 1, index <= textBufferCount, sqlite3_stmt_busy(handle) == 0,
              let source = utf8.baseAddress, !utf8.isEmpty
        else { return nil }
        let slot = textBuffers + Int(index - 1)
        let old = slot.pointee
        var buffer = old
        if old.capacity < utf8.count {
            let capacity = max(64, utf8.count)
            buffer = TextBuffer(base: .allocate(byteCount: capacity, alignment: 1), capacity: capacity)
        }
        buffer.base!.copyMemory(from: source, byteCount: utf8.count)
        // A nil destructor is SQLITE_STATIC: the buffer outlives the binding.
        let code = sqlite3_bind_text(handle, index, buffer.base!.assumingMemoryBound(to: CChar.self), Int32(utf8.count), nil)
        if buffer.base != old.base {
            // Keep whichever buffer SQLite now points into.
            if code == SQLITE_OK {
                old.base?.deallocate()
                slot.pointee = buffer
            } else {
                buffer.base!.deallocate()
            }
        }
        return code
    }

    /// Binds SQL NULL to the 1-based parameter `index`.
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index), connection, sql: sql)
    }

    /// Binds `value` to a named parameter, written as in the SQL: `:title`, `@title` or `$title`.
    public func bind(_ value: some Bindable, named name: String) throws(SQLiteError) {
        try bind(value, at: try parameterIndex(name))
    }

    /// Binds values to parameters 1, 2, 3... in order; `nil` binds NULL.
    public func bind(_ values: [(any Bindable)?]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds values to named parameters; `nil` binds NULL.
    public func bind(named values: [String: (any Bindable)?]) throws(SQLiteError) {
        for (name, value) in values {
            try bind(value, at: try parameterIndex(name))
        }
    }

    private func bind(_ value: (any Bindable)?, at index: Int32) throws(SQLiteError) {
        let code = value.map { $0.bind(to: handle, at: index) } ?? sqlite3_bind_null(handle, index)
        try check(code, connection, sql: sql)
    }

    private func parameterIndex(_ name: String) throws(SQLiteError) -> Int32 {
        let index = sqlite3_bind_parameter_index(handle, name)
        guard index > 0 else {
            throw SQLiteError(extendedCode: SQLITE_RANGE, message: "no parameter named \(name)", sql: sql)
        }
        return index
    }

    /// The number of parameters the SQL declares.
    public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    // MARK: Stepping

    /// Advances to the next row; `false` when the statement is done.
    @inlinable @inline(__always)
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw SQLiteError(code: code, connection: connection, sql: sql)
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    @inlinable @inline(__always)
    public func reset() {
        // sqlite3_reset repeats the last step's error, which step() already threw.
        sqlite3_reset(handle)
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() { sqlite3_clear_bindings(handle) }

    /// Runs the statement to completion with its current bindings, then resets it.
    @inlinable
    public func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    /// Binds `arguments` to parameters 1, 2, 3..., runs the statement to completion and resets it.
    public func run(_ arguments: (any Bindable)?...) throws(SQLiteError) {
        reset()
        try bind(arguments)
        try run()
    }

    /// Binds `arguments`, calls `body` with each row, and resets the statement.
    public func forEach(_ arguments: [(any Bindable)?] = [], _ body: (Row) throws -> Void) throws {
        reset()
        defer { reset() }
        try bind(arguments)
        let row = Row(statement: self)
        while try step() { try body(row) }
    }

    /// Binds `arguments` and maps every row through `transform`.
    public func map<T>(_ arguments: [(any Bindable)?] = [], _ transform: (Row) throws -> T) throws -> [T] {
        var result: [T] = []
        try forEach(arguments) { result.append(try transform($0)) }
        return result
    }

    /// The current row, valid until the next `step()` or `reset()`.
    @inlinable public var row: Row { Row(statement: self) }

    // MARK: Columns

    /// The number of columns in a result row.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name of column `index`, as SQLite reports it (the `AS` alias when there is one).
    public func columnName(at index: Int32) -> String {
        sqlite3_column_name(handle, index).map { String(cString: $0) } ?? "#\(index)"
    }

    /// The 0-based index of the column named `name` (case-insensitive).
    public func columnIndex(_ name: String) throws(SQLiteError) -> Int32 {
        if columnIndexes == nil {
            var indexes: [String: Int32] = [:]
            for index in 0..<columnCount where indexes[columnName(at: index).lowercased()] == nil {
                indexes[columnName(at: index).lowercased()] = index
            }
            columnIndexes = indexes
        }
        guard let index = columnIndexes![name.lowercased()] else {
            throw SQLiteError(extendedCode: SQLITE_RANGE, message: "no column named \(name)", sql: sql)
        }
        return index
    }
}
