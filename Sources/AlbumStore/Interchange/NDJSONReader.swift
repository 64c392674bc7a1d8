/// Reads NDJSON (JSON Lines): one album object a line, through the same parser as `JSONReader`.
///
/// Blank lines are skipped. A line that is not one JSON object (a syntax error, another kind of
/// value, more after the object) comes back as a record with a problem saying why, and reading
/// goes on at the next line.
struct NDJSONReader: CatalogReader {
    private var scanner: JSONScanner

    var columns: [String] { scanner.columns }
    var bytesRead: Int { scanner.bytesRead }

    init(over input: CatalogInput) {
        scanner = JSONScanner(over: input, singleLine: true)
    }

    mutating func next() throws -> CatalogRecord? {
        while true {
            guard let byte = try scanner.skipWhitespace() else { return nil }
            if byte == 0x0A {
                scanner.stepPastLineFeed()
                continue
            }
            let line = scanner.line
            do {
                var record: CatalogRecord
                if byte == UInt8(ascii: "{") {
                    let (values, problem) = try scanner.readObject()
                    record = CatalogRecord(line: line, values: values, problem: problem)
                } else {
                    let kind = try scanner.skipValue(depth: 1)
                    record = CatalogRecord(line: line, values: [], problem: "is \(kind), not an album object")
                }
                let after = try scanner.skipWhitespace()
                if after == 0x0A {
                    scanner.stepPastLineFeed()
                } else if after != nil {
                    throw scanner.error("the end of the line after the object", found: after)
                }
                return record
            } catch let error as CatalogError {
                try scanner.skipLine()
                return CatalogRecord(line: line, values: [], problem: "is not valid JSON: \(error.reason)")
            }
        }
    }
}
