import FoundationEssentials

/// One command in the undo history.
///
/// Its JSON form: `id`, `date` (an `ISO8601Timestamp` string), `is_undone`, `description`.
public struct HistoryEntry: Sendable, Codable, Hashable, Identifiable {
    /// The entry's id: later commands have larger ids.
    public let id: Int64
    /// What the command did, e.g. "delete “Low” by David Bowie".
    public let description: String
    /// When the command ran, to the millisecond.
    public let date: Date
    /// `true` when undone: the entry is on the redo stack.
    public let isUndone: Bool
}

extension HistoryEntry {
    /// Writes the entry under snake_case keys, the date as an ISO 8601 string, whatever the
    /// encoder's strategies.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: SnakeCaseKey.self)
        try container.encode(id, forKey: "id")
        try container.encode(date, forKey: "date")
        try container.encode(isUndone, forKey: "is_undone")
        try container.encode(description, forKey: "description")
    }

    /// Reads what `encode(to:)` writes. - Throws: `DecodingError` naming a missing or bad key.
    public init(from decoder: Decoder) throws {
        let object = try SnakeCaseObject(decoder)
        id = try object.decode(Int64.self, forKey: "id")
        date = try object.decodeDate(forKey: "date")
        isUndone = try object.decode(Bool.self, forKey: "is_undone")
        description = try object.decode(String.self, forKey: "description")
    }
}
