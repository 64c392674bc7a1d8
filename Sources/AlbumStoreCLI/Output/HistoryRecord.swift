import AlbumStore
import Foundation

/// A history entry as `albumstore history` prints it.
struct HistoryRecord: Record {
    var entry: HistoryEntry

    static let tableHeader = ["ID", "When", "State", "Command"]
    var tableColumns: [String] {
        [String(entry.id), entry.date.formatted(date: .abbreviated, time: .standard), entry.isUndone ? "undone" : "done", entry.description]
    }

    static let dataHeader = ["id", "date", "undone", "description"]
    var dataColumns: [String] { [String(entry.id), entry.date.formatted(.iso8601), String(entry.isUndone), entry.description] }

    enum CodingKeys: String, CodingKey { case id, date, undone, description }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(entry.id, forKey: .id)
        try container.encode(entry.date, forKey: .date)
        try container.encode(entry.isUndone, forKey: .undone)
        try container.encode(entry.description, forKey: .description)
    }
}
