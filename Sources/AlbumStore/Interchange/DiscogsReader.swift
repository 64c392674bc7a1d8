import FoundationEssentials

/// Reads Discogs' "Export collection" CSV, giving its records our field names for what an album
/// keeps.
///
/// The export's header is `Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,
/// CollectionFolder,Date Added,Collection Media Condition,Collection Sleeve Condition,Collection
/// Notes`, possibly followed by the user's own `Collection …` columns; a row may stop after 12
/// fields (Discogs leaves the notes out when they are empty). Columns:
/// - `title` from Title;
/// - `artist` from Artist without Discogs' marks: the disambiguation suffix ` (N)` at the very end
///   (`Nirvana (2)` is Nirvana, `Was (Not Was)` stays) and the `*` of a name variation; `Various`
///   (a compilation) becomes `Various Artists`;
/// - `year` from Released, a year or a date (`1987-05-00` is 1987) as a `.number`; `0` or empty is
///   absent; anything else is passed on as text for the import to judge;
/// - `external_id`, `discogs:` and the release_id;
/// - `created_at` from Date Added, as written;
/// - every other column under its own header name, which the import lists as ignored.
struct DiscogsReader: CatalogReader {
    /// The columns of Discogs' export, in its order.
    static let header = [
        "Catalog#", "Artist", "Title", "Label", "Format", "Rating", "Released", "release_id", "CollectionFolder",
        "Date Added", "Collection Media Condition", "Collection Sleeve Condition", "Collection Notes",
    ]

    /// Whether `line` (a header line's bytes) starts with Discogs' export header: its first twelve
    /// names, as written.
    static func isDiscogsHeader(_ line: some Collection<UInt8>) -> Bool {
        let names = String(decoding: Array(line), as: UTF8.self).split(separator: ",", omittingEmptySubsequences: false)
        guard names.count >= 12 else { return false }
        return zip(names, header.prefix(12)).allSatisfy { $0.trimmingWhitespace() == $1 }
    }

    private enum Role {
        case title, artist, released, releaseID, dateAdded
        case passedOn(column: Int)
    }

    private var csv: CSVReader
    let columns: [String]
    /// What each column of the CSV becomes.
    private let roles: [Role]

    var bytesRead: Int { csv.bytesRead }

    /// - Throws: `CatalogError` when the header is not the export's (no Title, Artist or release_id).
    init(over input: CatalogInput) throws {
        csv = try CSVReader(over: input, minimumFieldCount: 12)
        var columns = [AlbumField.title, .artist, .year, .externalID, .createdAt].map(\.name)
        var roles: [Role] = []
        for name in csv.columns {
            switch name {
            case "Title": roles.append(.title)
            case "Artist": roles.append(.artist)
            case "Released": roles.append(.released)
            case "release_id": roles.append(.releaseID)
            case "Date Added": roles.append(.dateAdded)
            default:
                columns.append(name)
                roles.append(.passedOn(column: columns.count - 1))
            }
        }
        for needed in ["Title", "Artist", "release_id"] where !csv.columns.contains(needed) {
            throw CatalogError(line: 1, reason: "is not a Discogs collection export: its header has no \(needed) column")
        }
        self.columns = columns
        self.roles = roles
    }

    mutating func next() throws -> CatalogRecord? {
        guard var record = try csv.next() else { return nil }
        var values: [(column: Int, value: SourceValue)] = []
        values.reserveCapacity(record.values.count)
        for (column, value) in record.values {
            guard case let .text(text) = value else { continue }
            switch roles[column] {
            case .title: values.append((0, value))
            case .artist: values.append((1, .text(Self.artist(text))))
            case .released: if let year = Self.year(released: text) { values.append((2, year)) }
            case .releaseID:
                let id = text.trimmingWhitespace()
                if !id.isEmpty { values.append((3, .text("discogs:" + id))) }
            case .dateAdded: values.append((4, value))
            case let .passedOn(column): values.append((column, value))
            }
        }
        record.values = values
        return record
    }

    /// The artist's name without Discogs' marks: ` (N)` at the end, a trailing `*`; `Various` is
    /// `Various Artists`.
    static func artist(_ written: String) -> String {
        var name = Substring(written.trimmingWhitespace())
        func dropStar() {
            if name.hasSuffix("*") { name = name.dropLast() }
        }
        dropStar()
        if name.hasSuffix(")"), let open = name.lastIndex(of: "("), open > name.startIndex,
           name[name.index(before: open)] == " " {
            let number = name[name.index(after: open)..<name.index(before: name.endIndex)]
            if !number.isEmpty && number.allSatisfy({ $0.isASCII && $0.isNumber }) {
                name = name[..<name.index(before: open)]
                dropStar()
            }
        }
        return name == "Various" ? "Various Artists" : String(name)
    }

    /// The year of a Released value: `1979`, `1987-05-00` and `1987-05-12` give 1987; `0` and
    /// empty give none; other text is passed on as written.
    static func year(released written: String) -> SourceValue? {
        let text = written.trimmingWhitespace()
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return text.isEmpty ? nil : .text(text) }
        if digits.count == text.count {
            return digits.allSatisfy({ $0 == "0" }) ? nil : .number(String(digits))
        }
        guard digits.count == 4, text[digits.endIndex] == "-" else { return .text(text) }
        return digits == "0000" ? nil : .number(String(digits))
    }
}
