import Foundation
import Testing
@testable import AlbumStore
import TestSupport

/// `JSONValue(parsing:)`: session values and snapshot files, read by the catalog import's parser.
struct JSONValueReaderTests {
    private func parse(_ text: String) throws -> JSONValue { try JSONValue(parsing: Data(text.utf8)) }

    private func reason(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch let error as JSONValue.SyntaxError {
            return error.reason
        } catch {
            return "\(error)"
        }
    }

    @Test func everyKindOfValue() throws {
        #expect(try parse(#" {"a": [1, -2, 3.5, 1e3, -0.25E-2, true, false, null, "x"], "b": {}} "#) == .object([
            "a": .array([.integer(1), .integer(-2), .double(3.5), .double(1000), .double(-0.0025), .bool(true), .bool(false),
                         .null, .string("x")]),
            "b": .object([:]),
        ]))
        #expect(try parse("[]") == .array([]))
        #expect(try parse("\"\"") == .string(""))
        #expect(try parse("9223372036854775807") == .integer(.max))
        #expect(try parse("-9223372036854775808") == .integer(.min))
        #expect(try parse("9223372036854775808") == .unsigned(9_223_372_036_854_775_808))
        #expect(try parse("18446744073709551615") == .unsigned(.max))
        #expect(try parse("18446744073709551616") == .double(18_446_744_073_709_551_616))
        #expect(try parse("-9223372036854775809") == .double(-9_223_372_036_854_775_808))   // the nearest Double
        // -0 keeps its sign, as JSONEncoder writes -0.0; it is written back the same way.
        let negativeZero = try parse("-0")
        guard case let .double(zero) = negativeZero else { Issue.record("-0 read as \(negativeZero)"); return }
        #expect(zero.sign == .minus && negativeZero.description == "-0")
    }

    @Test func escapesAndUnicodeComeBackExactly() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\u0000""#) == .string("a\"b\\c/d\u{8}\u{c}\n\r\té\u{0}"))
        #expect(try parse(#""\ud83c\udfb5 🎵 日本""#) == .string("🎵 🎵 日本"))
        #expect(try parse(#""\ud83c x""#) == .string("\u{FFFD} x"))   // a lone surrogate
    }

    @Test func whatTheSerializerWritesReadsBack() throws {
        let values: [JSONValue] = [
            .object(["tabs": .array([.string("covers"), .string("dé\"tails\n\u{1}")]), "n": .integer(-7), "x": .double(0.1)]),
            .string("🎵\u{7f}"), .double(1e300), .double(-2.5e-300), .array([.null, .array([.object([:])])]),
        ]
        for value in values { #expect(try parse(value.description) == value) }
        // A whole double is written as the integer it reads back as.
        #expect(JSONValue.double(2).description == "2")
    }

    @Test func errorsSayWhatAndWhere() {
        #expect(reason("{oops") == "expected a member name in double quotes, found 'o' at line 1, column 2")
        #expect(reason("{\"a\": 1,\n \"b\": ]}") == "expected a JSON value, found ']' at line 2, column 7")
        #expect(reason("[1 2]") == "expected ',' or ']' in the array, found '2' at line 1, column 4")
        #expect(reason("{\"a\" 1}") == "expected ':' after the member name, found '1' at line 1, column 6")
        #expect(reason("[1] x") == "expected the end of the text after the value, found 'x' at line 1, column 5")
        #expect(reason("01") == "a number cannot start with 0 at line 1, column 2")
        #expect(reason("-") == "expected a digit, found the end of the text at line 1, column 2")
        #expect(reason("1.") == "expected a digit after '.', found the end of the text at line 1, column 3")
        #expect(reason("1e999") == "the number is too large at line 1, column 1")
        #expect(reason("\"a\u{1}\"") == "expected a control character escaped (\\u00XX), found the byte 0x1 at line 1, column 3")
        #expect(reason(#""\x""#) == #"expected an escape (\", \\, \/, \b, \f, \n, \r, \t or \uXXXX) after '\', found 'x' at line 1, column 3"#)
        #expect(reason(#""\u12""#) == #"expected four hex digits after '\u', found '"' at line 1, column 6"#)
        #expect(reason(#""\u12"#) == #"expected four hex digits after '\u', found the end of the text at line 1, column 6"#)
        #expect(reason("") == "expected a JSON value, found the end of the text at line 1, column 1")
        #expect(reason("tru") == "expected 'true', found the end of the text at line 1, column 4")
        #expect(reason("nul!") == "expected 'null', found '!' at line 1, column 4")
        #expect(reason("[\"a\",\n  \"b\"\n") == "expected ',' or ']' in the array, found the end of the text at line 3, column 1")
    }

    @Test func invalidUTF8AndDeepNestingAreRefusedWithoutACrash() {
        var bytes = Data("[\"ab".utf8)
        bytes.append(contentsOf: [0xFF, 0xFE])
        bytes.append(contentsOf: Data("\"]".utf8))
        #expect(throws: JSONValue.SyntaxError(reason: "a string is not valid UTF-8 at line 1, column 2")) {
            try JSONValue(parsing: bytes)
        }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(reason(deep) == "nested deeper than 512 levels at line 1, column 513")
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(reason(fine) == nil)
    }

    @Test func everyPrefixOfADocumentIsRefusedAsTruncated() throws {
        let document = #"{"a": [1, 2.5, "x\ty", {"b": null}], "c": true}"#
        let bytes = Array(document.utf8)
        for length in 0..<bytes.count {
            let prefix = String(decoding: bytes[0..<length], as: UTF8.self)
            // A prefix ending in a whole number is a different error; all are errors.
            #expect(reason(prefix) != nil, "\(prefix)")
        }
        #expect(reason(document) == nil)
    }

    @Test func agreesWithFoundationOnMutatedDocuments() {
        var generator = SeededRandom()
        let seed = generator.seed
        let document = Array(#"{"tabs": ["a", "b"], "n": [1, -2.5e3, true, false, null], "s": "x\"y"}"#.utf8)
        let alphabet = Array(#"{}[]":,.-+eE0123456789 tfnul"\x"#.utf8)
        for _ in 0..<3000 {
            var mutated = document
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let index = Int.random(in: 0..<mutated.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: mutated.remove(at: index)
                case 1: mutated.insert(alphabet.randomElement(using: &generator) ?? 0x20, at: index)
                default: mutated[index] = alphabet.randomElement(using: &generator) ?? 0x20
                }
            }
            // Foundation takes a trailing comma, which RFC 8259 does not allow (nor do we).
            let compact = String(decoding: mutated.filter { $0 != 0x20 }, as: UTF8.self)
            if compact.contains(",]") || compact.contains(",}") { continue }
            let data = Data(mutated)
            let ours = (try? JSONValue(parsing: data)) != nil
            let foundation = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
            #expect(ours == foundation, "\(String(decoding: mutated, as: UTF8.self)), seed \(seed)")
        }
    }

    @Test(.timeLimit(.minutes(1))) func anObjectOfManyMembersIsReadInLinearTime() throws {
        // A search of the members read so far for each name would run for minutes here,
        // past the time limit; how fast the linear reading is belongs to the benchmarks.
        let count = 50_000
        var text = "{"
        for number in 0..<count { text += "\"key \(number)\": \(number)," }
        text += "\"key 0\": null}"
        let value = try parse(text)
        guard case let .object(members) = value else {
            Issue.record("not an object: \(value.kind)")
            return
        }
        #expect(members.count == count)
        #expect(members["key 0"] == .null && members["key 49999"] == .integer(49_999))
    }
}
