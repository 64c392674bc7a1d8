import FoundationEssentials

/// Turns catalog records into album drafts: maps their columns to fields, reads each value as
/// its field needs it (a year from `1987`, `1987-05-12` or `1987.0`, a date from ISO 8601), and
/// checks the result with `AlbumDraft.validated`.
struct RecordConverter {
    var mapping: ColumnMapping
    /// The latest year a row may give: next year, from the time the import began.
    let latestYear: Int

    /// Why a record is not an album: the source column or field at fault, and the reason.
    struct Problem: Error {
        var field: String?
        var reason: String
    }

    init(mapping: [String: AlbumField], now: Date = Date()) {
        self.mapping = ColumnMapping(mapping: mapping)
        latestYear = AlbumDraft.year(of: now) + 1
    }

    /// The fields an import fills, in slot order.
    private static let slotFields: [AlbumField] = [.title, .artist, .genre, .year, .coverURL, .externalID, .createdAt, .updatedAt]

    @inline(__always)
    private static func slot(of field: AlbumField) -> Int? {
        switch field {
        case .title: 0
        case .artist: 1
        case .genre: 2
        case .year: 3
        case .coverURL: 4
        case .externalID: 5
        case .createdAt: 6
        case .updatedAt: 7
        case .index, .id: nil
        }
    }

    /// The record as a checked row, or the problem that keeps it out.
    mutating func convert(_ record: CatalogRecord, columns: [String]) -> Result<ImportedRow, Problem> {
        if let problem = record.problem { return .failure(Problem(field: nil, reason: problem)) }
        mapping.update(to: columns)
        // Per slot: the winning value, its rank and its column. Inline arrays: no allocation,
        // no uniqueness check per write, for a few million rows.
        var values = InlineArray<8, SourceValue?>(repeating: nil)
        var ranks = InlineArray<8, Int>(repeating: -1)
        var winners = InlineArray<8, Int>(repeating: -1)
        let targets = mapping.targets
        for (column, value) in record.values {
            guard column >= 0, column < targets.count, let target = targets[column],
                  let slot = Self.slot(of: target.field), target.rank > ranks[slot] else { continue }
            // An empty text is an absent value, as an empty CSV cell is.
            if case .text(let text) = value, text.isEmpty { continue }
            values[slot] = value
            ranks[slot] = target.rank
            winners[slot] = column
        }
        let sources = winners   // a constant: the closure below would box a variable
        func name(_ slot: Int) -> String {
            sources[slot] >= 0 && sources[slot] < columns.count ? columns[sources[slot]] : Self.slotFields[slot].name
        }
        do {
            var supplied = FieldSet()
            for slot in 0..<8 where values[slot] != nil { supplied.insert(Self.slotFields[slot]) }
            let draft = AlbumDraft(
                title: try text(values[0], name(0)) ?? "", artist: try text(values[1], name(1)) ?? "",
                genre: try text(values[2], name(2)), year: try Self.year(values[3], name(3)),
                coverURL: try text(values[4], name(4)), externalID: try text(values[5], name(5)))
            let created = try Self.milliseconds(values[6], name(6))
            let updated = try Self.milliseconds(values[7], name(7))
            let valid: AlbumDraft
            do {
                valid = try draft.validated(latestYear: latestYear)
            } catch AlbumError.invalid(let field, let reason) {
                let slot = ["title": 0, "artist": 1, "genre": 2, "year": 3, "cover URL": 4, "external id": 5][field]
                throw Problem(field: slot.map(name) ?? field, reason: reason)
            }
            return .success(ImportedRow(line: record.line, draft: valid, supplied: supplied, createdAt: created, updatedAt: updated))
        } catch let problem as Problem {
            return .failure(problem)
        } catch {
            return .failure(Problem(field: nil, reason: "\(error)"))
        }
    }

    /// The names of the columns that feed no field, in the order met.
    var unknownColumns: [String] { mapping.unknown }

    // MARK: Values

    private func text(_ value: SourceValue?, _ name: @autoclosure () -> String) throws(Problem) -> String? {
        switch value {
        case nil: nil
        case .text(let text): text
        case .number(let literal): literal
        case .bool(let flag): flag ? "true" : "false"
        case .nested: throw Problem(field: name(), reason: "a list or object where text belongs")
        }
    }

    /// A year from a number (`1987`, `1987.0`) or a text: digits, or a date starting with its
    /// four-digit year (`1987-05-12`, `1987/05`). 0 means unknown (Discogs writes it so).
    static func year(_ value: SourceValue?, _ name: @autoclosure () -> String) throws(Problem) -> Int? {
        let literal: String
        switch value {
        case nil: return nil
        case .number(let text), .text(let text): literal = text.trimmed
        case .bool, .nested: throw Problem(field: name(), reason: "not a year")
        }
        if literal.isEmpty { return nil }
        if let year = Int(literal) { return year == 0 ? nil : year }
        if let number = Double(literal), number.isFinite, number == number.rounded(), abs(number) < 1e9 {
            return number == 0 ? nil : Int(number)
        }
        // A date: four digits, then a separator.
        let bytes = Array(literal.utf8.prefix(5))
        if bytes.count == 5, bytes[0..<4].allSatisfy({ $0 &- 0x30 < 10 }), [UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "T"), UInt8(ascii: " ")].contains(bytes[4]) {
            return bytes[0..<4].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        throw Problem(field: name(), reason: "\(Self.quoted(literal)) is not a year")
    }

    /// Milliseconds since 1970 from an ISO 8601 date and time (as exports write them), a date
    /// and time without a zone (read as UTC, as Discogs writes `Date Added`), or a date alone.
    static func milliseconds(_ value: SourceValue?, _ name: @autoclosure () -> String) throws(Problem) -> Int64? {
        guard let value else { return nil }
        guard case .text(let raw) = value else { throw Problem(field: name(), reason: "not a date") }
        let text = raw.trimmed
        if text.isEmpty { return nil }
        let date = ISO8601Timestamp.date(from: text) ?? ISO8601Timestamp.date(from: text + "Z")
            ?? ISO8601Timestamp.date(from: text + "T00:00:00Z")
        guard let date else { throw Problem(field: name(), reason: "\(quoted(text)) is not a date (ISO 8601)") }
        return ISO8601Timestamp.milliseconds(of: date)
    }

    /// `text` in quotes for a message, cut to 40 characters.
    static func quoted(_ text: String) -> String {
        "\"" + (text.count > 40 ? text.prefix(40) + "…" : text) + "\""
    }
}
