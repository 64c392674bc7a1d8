/// Why undo or redo could not run. Nothing was changed.
public enum HistoryError: Error, CustomStringConvertible, Sendable, Equatable {
    /// No command is left to undo: the history is empty, or every command in it is undone.
    case nothingToUndo
    /// Every command the history keeps is undone; older ones were dropped (the history keeps
    /// the last `limit`, `Library.Configuration.historyLimit`).
    case nothingOlderToUndo(limit: Int)
    /// No undone command is left to redo (a new command clears the redo stack).
    case nothingToRedo
    /// The library changed outside the history since the command ran (e.g. by raw SQL).
    case conflict(command: String, reason: String)

    /// The refusal in one line.
    public var description: String {
        switch self {
        case .nothingToUndo: "nothing to undo"
        case let .nothingOlderToUndo(limit): "nothing older to undo: the history keeps the last \(limit) commands"
        case .nothingToRedo: "nothing to redo"
        case let .conflict(command, reason): "cannot undo or redo \(command): \(reason)"
        }
    }
}
