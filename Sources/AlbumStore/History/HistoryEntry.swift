import Foundation

/// One command in the undo history.
public struct HistoryEntry: Sendable, Codable, Hashable, Identifiable {
    public let id: Int64
    /// What the command did, e.g. "delete “Low” by David Bowie".
    public let description: String
    public let date: Date
    /// `true` when undone: the entry is on the redo stack.
    public let isUndone: Bool
}
