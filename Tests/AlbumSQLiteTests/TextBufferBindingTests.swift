import Foundation
import AlbumSQLite
import Testing

/// The String overloads of Statement.bind(_:at:) that copy text into statement-owned buffers.
struct TextBufferBindingTests {
    @Test func rebindingTextsOfEveryLengthStoresEachValue() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE t(a TEXT, b TEXT)")
        let insert = try connection.prepare("INSERT INTO t(a, b) VALUES (?, ?)")
        var expected: [String] = []
        for i in 0..<600 {
            // Growing, shrinking, empty, multi-byte, and over the 4096-byte buffer limit.
            let a = i % 50 == 0 ? String(repeating: "é", count: 3000) : String(repeating: "x", count: (i * 37) % 300)
            let b: String? = i % 3 == 0 ? nil : "b\(i)"
            try insert.bind(a, at: 1)
            try insert.bind(b, at: 2)
            _ = try insert.step()
            insert.reset()
            expected.append(a + "|" + (b ?? "NULL"))
        }
        let stored = try connection.prepare("SELECT a, b FROM t ORDER BY rowid").map { row in
            try row[0, as: String.self] + "|" + (try row[1, as: String?.self] ?? "NULL")
        }
        #expect(stored == expected)
        #expect(try connection.scalar("SELECT count(*) FROM t WHERE a IS NULL", as: Int.self) == 0)
    }

    @Test func rerunningWithoutRebindingReusesTheText() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE t(a TEXT)")
        let insert = try connection.prepare("INSERT INTO t(a) VALUES (?)")
        var text = "first"
        try insert.bind(text, at: 1)
        text += " changed"  // the caller's string changes; the binding must not
        try insert.run()
        try insert.run()
        #expect(try connection.prepare("SELECT a FROM t").map { try $0[0, as: String.self] } == ["first", "first"])
    }

    @Test func bindingWhileRunningThrowsAndKeepsTheValueInUse() throws {
        let connection = try Connection(path: ":memory:")
        try connection.execute("CREATE TABLE t(n INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        let select = try connection.prepare("SELECT ?1 FROM t")
        try select.bind("kept", at: 1)
        #expect(try select.step())
        #expect(throws: SQLiteError.self) { try select.bind("replaced", at: 1) }
        #expect(try select.step())
        #expect(try select.withCurrentRow { try $0[0, as: String.self] } == "kept")
    }

    @Test func outOfRangeIndexThrowsRange() throws {
        let connection = try Connection(path: ":memory:")
        let select = try connection.prepare("SELECT ?1")
        #expect { try select.bind("x", at: 2) } throws: { ($0 as? SQLiteError)?.code == 25 }  // SQLITE_RANGE
        #expect { try select.bind("x", at: 0) } throws: { ($0 as? SQLiteError)?.code == 25 }
    }

    @Test func emptyStringBindsEmptyTextNotNull() throws {
        let connection = try Connection(path: ":memory:")
        let select = try connection.prepare("SELECT typeof(?1), length(?1)")
        try select.bind("", at: 1)
        #expect(try select.step())
        #expect(try select.withCurrentRow { try $0[0, as: String.self] } == "text")
        #expect(try select.withCurrentRow { try $0[1, as: Int.self] } == 0)
    }
}
