import FoundationEssentials

/// Checks that bytes are a well-formed changeset before SQLite's session extension reads them.
///
/// Why: the history table holds changesets that any program can overwrite, and SQLite 3.40's
/// changeset iterator does not survive every malformed input: a table header declaring zero
/// columns (even a lone `T` byte) sends `sqlite3changeset_next` and `_invert` into an endless
/// loop. So undo, redo and `Library.check` walk the bytes here first, in bounded time, and hand
/// SQLite only what has the documented shape. (It lives beside the history, its one user, rather
/// than in the SQLite layer.)
///
/// The format, from SQLite's sqlite3session.c ("CHANGESET FORMAT"): groups of a table header
/// (`T`, a varint column count, one primary-key flag byte per column, the table name ending in
/// a NUL byte) followed by changes: an operation byte (INSERT 0x12, UPDATE 0x17, DELETE 0x09),
/// an indirect flag byte, then an old record (DELETE, UPDATE) and a new one (INSERT, UPDATE) of
/// one field per column: a type byte (0 undefined, 1 integer and 2 real with 8 bytes, 3 text
/// and 4 blob with a varint length and that many bytes, 5 NULL).
/// Related SQLite documentation: https://sqlite.org/session/changeset_start.html
enum ChangesetFormat {
    /// Why `data` is not a changeset, or `nil` when it is well-formed (an empty one is).
    static func problem(in data: Data) -> String? {
        var reader = Reader(bytes: Array(data))
        var columns = 0
        while !reader.isAtEnd {
            guard let kind = reader.byte() else { return "it ends inside a change" }
            switch kind {
            case UInt8(ascii: "T"):
                guard let count = reader.varint(), count > 0, count <= 65536 else {
                    return "a table header has no valid column count"
                }
                columns = Int(count)
                guard reader.skip(columns) else { return "a table header ends early" }
                guard reader.skipNameEndingInNUL() else { return "a table name is not terminated" }
            case 0x12, 0x17, 0x09:
                guard columns > 0 else { return "a change comes before any table header" }
                guard reader.byte() != nil else { return "a change ends early" }
                let records = kind == 0x17 ? 2 : 1
                for _ in 0..<records * columns {
                    if let problem = reader.skipField() { return problem }
                }
            default:
                return "byte \(reader.offset - 1) is neither a table header nor a change"
            }
        }
        return nil
    }

    /// A cursor over the bytes that never reads past their end.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset >= bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, count <= bytes.count - offset else { return false }
            offset += count
            return true
        }

        mutating func skipNameEndingInNUL() -> Bool {
            guard let end = bytes[offset...].firstIndex(of: 0) else { return false }
            offset = end + 1
            return true
        }

        /// SQLite's varint: 7 bits a byte, high bit set on all but the last, at most 9 bytes (the
        /// ninth giving 8 bits).
        mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            for index in 0..<9 {
                guard let byte = byte() else { return nil }
                if index == 8 { return value << 8 | UInt64(byte) }
                value = value << 7 | UInt64(byte & 0x7F)
                if byte & 0x80 == 0 { return value }
            }
            return value
        }

        /// Skips one field of a record; returns why it cannot.
        mutating func skipField() -> String? {
            guard let type = byte() else { return "a record ends early" }
            switch type {
            case 0, 5: return nil
            case 1, 2: return skip(8) ? nil : "a number ends early"
            case 3, 4:
                guard let length = varint(), length <= UInt64(bytes.count - offset) else {
                    return "a text or blob is longer than the changeset"
                }
                return skip(Int(length)) ? nil : "a text or blob ends early"
            default: return "a field has unknown type \(type)"
            }
        }
    }
}
