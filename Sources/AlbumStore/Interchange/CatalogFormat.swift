/// The formats a catalog can be imported from, by their usual short names.
public enum CatalogFormat: String, CaseIterable, Sendable {
    /// Comma-separated values (RFC 4180) with a header line naming the fields.
    case csv
    /// Tab-separated values with a header line naming the fields.
    case tsv
    /// An array of album objects, or an object holding one under a key (`{"albums": [...]}`).
    case json
    /// One album object a line.
    case ndjson
    /// Discogs' "Export collection" CSV.
    case discogs
    /// The iTunes / Apple Music `Library.xml` (a property list of tracks, grouped into albums).
    case libraryXML = "library-xml"

    /// The format of a file, from its name's extension when it has a known one, else from its
    /// first bytes (`head`, decoded, without a BOM).
    ///
    /// Extensions: `.csv` (Discogs when the header is Discogs' export header), `.tsv` and `.tab`,
    /// `.json`, `.ndjson` and `.jsonl`, `.xml`. By content: `<?xml` or `<plist` is a Library.xml;
    /// `[` JSON; `{` NDJSON when the first line is a whole object and more lines follow, else
    /// JSON; a first line with tabs and no commas TSV; Discogs' header Discogs; anything else CSV.
    public static func detect(fileName: String?, head: some Collection<UInt8>) -> CatalogFormat {
        let bytes = Array(head)
        if let fileName, let dot = fileName.lastIndex(of: "."), !fileName[dot...].contains("/") {
            switch fileName[fileName.index(after: dot)...].lowercased() {
            case "csv": return DiscogsReader.isDiscogsHeader(firstLine(of: bytes)) ? .discogs : .csv
            case "tsv", "tab": return .tsv
            case "json": return .json
            case "ndjson", "jsonl": return .ndjson
            case "xml": return .libraryXML
            default: break
            }
        }
        let start = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if start.starts(with: Array("<?xml".utf8)) || start.starts(with: Array("<plist".utf8)) { return .libraryXML }
        if start.first == UInt8(ascii: "[") { return .json }
        if start.first == UInt8(ascii: "{") {
            return startsWithObjectLineAndMore(Array(start)) ? .ndjson : .json
        }
        let line = firstLine(of: bytes)
        if line.contains(0x09) && !line.contains(UInt8(ascii: ",")) { return .tsv }
        return DiscogsReader.isDiscogsHeader(line) ? .discogs : .csv
    }

    /// A reader of this format over `input`; for CSV and TSV, with `separator` (CSV's own default:
    /// `;` when the first line has semicolons and no comma, else `,`) and a header or none.
    ///
    /// - Throws: `CatalogError` when the start of the file cannot be read in this format (a CSV
    ///   header with a NUL byte, ...).
    func reader(over input: CatalogInput, separator: UInt8? = nil, hasHeader: Bool = true) throws -> any CatalogReader {
        switch self {
        case .csv:
            try CSVReader(over: input, separator: separator ?? Self.csvSeparator(head: input.head), hasHeader: hasHeader)
        case .tsv: try CSVReader(over: input, separator: separator ?? UInt8(ascii: "\t"), hasHeader: hasHeader)
        case .json: try JSONReader(over: input)
        case .ndjson: NDJSONReader(over: input)
        case .discogs: try DiscogsReader(over: input)
        case .libraryXML: try LibraryXMLReader(over: input)
        }
    }

    /// `;` when the first line has one and no comma or tab (as spreadsheets write CSV where the
    /// comma is the decimal mark), else `,`.
    static func csvSeparator(head: [UInt8]) -> UInt8 {
        let line = firstLine(of: head)
        let semicolon = UInt8(ascii: ";")
        return line.contains(semicolon) && !line.contains(UInt8(ascii: ",")) && !line.contains(0x09) ? semicolon : UInt8(ascii: ",")
    }

    /// The bytes before the first line end.
    private static func firstLine(of bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.prefix { $0 != 0x0A && $0 != 0x0D }
    }

    /// Whether the first line is a whole JSON object (a complete value, checked by the JSON
    /// scanner) and another non-blank line follows.
    private static func startsWithObjectLineAndMore(_ bytes: [UInt8]) -> Bool {
        guard let end = bytes.firstIndex(of: 0x0A) else { return false }
        let rest = bytes[(end + 1)...]
        guard rest.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { return false }
        return JSONScanner.isOneObject(bytes[..<end])
    }
}
