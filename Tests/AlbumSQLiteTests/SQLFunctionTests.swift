import AlbumSQLite
import Testing

/// SQL functions written in Swift: their arguments copied into values, or lent in place.
struct SQLFunctionTests {
    let connection: Connection

    init() throws {
        connection = try Connection(path: ":memory:")
    }

    @Test func aLendingFunctionReadsTextAsSQLiteHoldsIt() throws {
        try connection.createLendingFunction("utf8", argumentCount: 1) { arguments in
            arguments.withUTF8(ofText: 0) { .text($0.map { String($0, radix: 16) }.joined(separator: " ")) } ?? .null
        }
        #expect(try connection.scalar("SELECT utf8('Lé')", as: String.self) == "4c c3 a9")
        #expect(try connection.scalar("SELECT utf8('')", as: String.self) == "")
        // Invalid UTF-8 another program stored comes unrepaired.
        #expect(try connection.scalar("SELECT utf8(CAST(x'41FF' AS TEXT))", as: String.self) == "41 ff")
        // Other values are not text, and are not converted to it.
        for value in ["12", "1.5", "NULL", "x'4C6F77'"] {
            #expect(try connection.scalar("SELECT utf8(\(value)) IS NULL", as: Bool.self) == true, "\(value)")
        }
    }

    @Test func aLendingFunctionCopiesAnArgumentAsAValue() throws {
        try connection.createLendingFunction("second", argumentCount: -1) { arguments in arguments[1] }
        #expect(try connection.scalar("SELECT second(1, 'two')", as: String.self) == "two")
        #expect(try connection.scalar("SELECT second(1, 2.5)", as: Double.self) == 2.5)
        #expect(try connection.scalar("SELECT typeof(second(1, x'0102'))", as: String.self) == "blob")
        // Past the last argument: NULL.
        #expect(try connection.scalar("SELECT second(1) IS NULL", as: Bool.self) == true)
    }

    @Test func aFunctionOfValuesGetsEveryArgumentCopied() throws {
        try connection.createFunction("kinds", argumentCount: -1) { arguments in
            .text(arguments.map { value in
                switch value {
                case .null: "null"
                case .integer(let number): "integer \(number)"
                case .real(let number): "real \(number)"
                case .text(let text): "text \(text)"
                case .blob(let data): "blob \(data.count)"
                }
            }.joined(separator: ", "))
        }
        #expect(try connection.scalar("SELECT kinds(1, 2.5, 'Lé', NULL, x'0102')", as: String.self)
                == "integer 1, real 2.5, text Lé, null, blob 2")
        #expect(try connection.scalar("SELECT kinds(CAST(x'41FF' AS TEXT))", as: String.self) == "text A\u{FFFD}")
    }
}
