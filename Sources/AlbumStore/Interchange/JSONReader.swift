/// Reads a JSON catalog as a stream: an array of album objects, or an object holding one.
///
/// The top level is either `[{...}, {...}]` (what `JSONWriter` writes) or an object; in an object
/// the first member whose value is an array starting with an object is the catalog
/// (`{"albums": [...], ...}`), whatever its key; other members are checked and read past, and an
/// empty array counts only when no member holds objects. Each element becomes a record starting at
/// the line of its `{`; an element that is not an object is a record with a problem. Syntax errors
/// stop the reading: `CatalogError` names the line and what was expected there.
struct JSONReader: CatalogReader {
    private var scanner: JSONScanner
    private enum State { case array(first: Bool), done }
    private var state: State = .done
    /// The array is a member of a top-level object, whose rest is read after it.
    private var isWrapped = false

    var columns: [String] { scanner.columns }
    var bytesRead: Int { scanner.bytesRead }

    /// A reader of `input`, which it reads up to the first album object.
    ///
    /// - Throws: `CatalogError` when the file holds no array of objects, or at a syntax error before it.
    init(over input: CatalogInput) throws {
        scanner = JSONScanner(over: input, singleLine: false)
        let byte = try scanner.skipWhitespace()
        switch byte {
        case UInt8(ascii: "["):
            scanner.step()
            state = .array(first: true)
        case UInt8(ascii: "{"):
            scanner.step()
            try findArray()
        default:
            throw scanner.error("a JSON array of album objects ('[') or an object holding one ('{')", found: byte)
        }
    }

    /// Reads the members of the top-level object up to the value of the first one that is an
    /// array starting with an object.
    private mutating func findArray() throws {
        var sawEmptyArray = false
        var byte = try scanner.skipWhitespace()
        if byte == UInt8(ascii: "}") { return try noArray(sawEmptyArray: false) }
        while true {
            guard byte == UInt8(ascii: "\"") else { throw scanner.error("a key (a string in double quotes)", found: byte) }
            _ = try scanner.readString()
            byte = try scanner.skipWhitespace()
            guard byte == UInt8(ascii: ":") else { throw scanner.error("':' after a key", found: byte) }
            scanner.step()
            if try scanner.skipWhitespace() == UInt8(ascii: "[") {
                scanner.step()
                let first = try scanner.skipWhitespace()
                if first == UInt8(ascii: "{") {
                    state = .array(first: true)
                    isWrapped = true
                    return
                }
                if first == UInt8(ascii: "]") {
                    scanner.step()
                    sawEmptyArray = true
                } else {
                    try scanner.skipArrayElements(depth: 2)
                }
            } else {
                try scanner.skipValue(depth: 1)
            }
            byte = try scanner.skipWhitespace()
            if byte == UInt8(ascii: "}") {
                scanner.step()
                return try noArray(sawEmptyArray: sawEmptyArray)
            }
            guard byte == UInt8(ascii: ",") else { throw scanner.error("',' or '}' after a value", found: byte) }
            scanner.step()
            byte = try scanner.skipWhitespace()
        }
    }

    private mutating func noArray(sawEmptyArray: Bool) throws {
        guard sawEmptyArray else {
            throw CatalogError(line: scanner.line, reason: #"holds no array of album objects: expected [{...}, ...] or {"albums": [{...}, ...]}"#)
        }
        try expectEnd()
    }

    mutating func next() throws -> CatalogRecord? {
        guard case let .array(first) = state else { return nil }
        var byte = try scanner.skipWhitespace()
        if byte == UInt8(ascii: "]") {
            scanner.step()
            try finish()
            return nil
        }
        if !first {
            guard byte == UInt8(ascii: ",") else { throw scanner.error("',' or ']' after an album object", found: byte) }
            scanner.step()
            byte = try scanner.skipWhitespace()
        }
        state = .array(first: false)
        let line = scanner.line
        guard byte == UInt8(ascii: "{") else {
            let kind = try scanner.skipValue(depth: 1)
            return CatalogRecord(line: line, values: [], problem: "is \(kind), not an album object")
        }
        let (values, problem) = try scanner.readObject()
        return CatalogRecord(line: line, values: values, problem: problem)
    }

    /// After the array: the rest of the object holding it, then nothing but white space.
    private mutating func finish() throws {
        state = .done
        if isWrapped {
            var byte = try scanner.skipWhitespace()
            while byte == UInt8(ascii: ",") {
                scanner.step()
                byte = try scanner.skipWhitespace()
                guard byte == UInt8(ascii: "\"") else { throw scanner.error("a key (a string in double quotes)", found: byte) }
                _ = try scanner.readString()
                byte = try scanner.skipWhitespace()
                guard byte == UInt8(ascii: ":") else { throw scanner.error("':' after a key", found: byte) }
                scanner.step()
                try scanner.skipValue(depth: 1)
                byte = try scanner.skipWhitespace()
            }
            guard byte == UInt8(ascii: "}") else { throw scanner.error("',' or '}' after a value", found: byte) }
            scanner.step()
        }
        try expectEnd()
    }

    private mutating func expectEnd() throws {
        state = .done
        let byte = try scanner.skipWhitespace()
        guard byte == nil else { throw scanner.error("the end of the file", found: byte) }
    }
}
