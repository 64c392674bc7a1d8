import CSQLite

/// An `sqlite3session` recording every table of `Schema` on a connection: the reference.
final class Session {
    private let session: OpaquePointer
    private(set) var wasAlwaysEnabled = true

    init(_ database: OpaquePointer) {
        var session: OpaquePointer?
        guard sqlite3session_create(database, "main", &session) == SQLITE_OK, let session else {
            fatalError("sqlite3session_create failed")
        }
        self.session = session
        for table in Schema.names where sqlite3session_attach(session, table) != SQLITE_OK {
            fatalError("sqlite3session_attach(\(table)) failed")
        }
    }

    deinit { sqlite3session_delete(session) }

    func enable(_ on: Bool) {
        if !on { wasAlwaysEnabled = false }
        sqlite3session_enable(session, on ? 1 : 0)
    }

    func changeset() -> [UInt8] {
        var count: Int32 = 0
        var buffer: UnsafeMutableRawPointer?
        let code = sqlite3session_changeset(session, &count, &buffer)
        guard code == SQLITE_OK else { fatalError("sqlite3session_changeset failed: \(code)") }
        defer { sqlite3_free(buffer) }
        return buffer.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(count))) } ?? []
    }
}

/// One change of a changeset with every field the format carries.
struct Change: Hashable, CustomStringConvertible {
    var table: String
    var primaryKey: [UInt8]
    var operation: Int32
    var indirect: Bool
    /// `nil` where the record leaves the column undefined.
    var old: [Value?]
    var new: [Value?]

    var description: String {
        let kind = operation == SQLITE_INSERT ? "INSERT" : operation == SQLITE_DELETE ? "DELETE" : "UPDATE"
        func show(_ values: [Value?]) -> String { "(" + values.map { $0?.description ?? "-" }.joined(separator: ", ") + ")" }
        return "\(kind) \(table)\(indirect ? " indirect" : "") old \(show(old)) new \(show(new))"
    }

    /// The changes of `changeset` in order; `nil` when SQLite cannot read it.
    static func all(in changeset: [UInt8]) -> [Change]? {
        if changeset.isEmpty { return [] }
        var bytes = changeset
        return bytes.withUnsafeMutableBytes { buffer -> [Change]? in
            var iterator: OpaquePointer?
            guard sqlite3changeset_start(&iterator, Int32(buffer.count), buffer.baseAddress) == SQLITE_OK,
                  let iterator else { return nil }
            var changes: [Change] = []
            var code = sqlite3changeset_next(iterator)
            while code == SQLITE_ROW {
                var table: UnsafePointer<CChar>?
                var columns: Int32 = 0, operation: Int32 = 0, indirect: Int32 = 0
                var key: UnsafeMutablePointer<UInt8>?
                var keyCount: Int32 = 0
                sqlite3changeset_op(iterator, &table, &columns, &operation, &indirect)
                sqlite3changeset_pk(iterator, &key, &keyCount)
                func values(_ read: (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32) -> [Value?] {
                    (0..<columns).map { column in
                        var value: OpaquePointer?
                        guard read(iterator, column, &value) == SQLITE_OK, let value else { return nil }
                        return Value(value)
                    }
                }
                changes.append(Change(
                    table: table.map { String(cString: $0) } ?? "?",
                    primaryKey: key.map { Array(UnsafeBufferPointer(start: $0, count: Int(keyCount))) } ?? [],
                    operation: operation, indirect: indirect != 0,
                    old: operation == SQLITE_INSERT ? [] : values(sqlite3changeset_old),
                    new: operation == SQLITE_DELETE ? [] : values(sqlite3changeset_new)))
                code = sqlite3changeset_next(iterator)
            }
            return sqlite3changeset_finalize(iterator) == SQLITE_OK && code == SQLITE_DONE ? changes : nil
        }
    }
}
