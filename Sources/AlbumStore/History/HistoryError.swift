/// Why undo or redo could not run. Nothing was changed.
public enum HistoryError: Error, CustomStringConvertible, Sendable, Equatable {
    case nothingToUndo
    case nothingToRedo
    /// The library changed outside the history since the command ran (e.g. by raw SQL).
    case conflict(command: String, reason: String)

    public var description: String {
        switch self {
        case .nothingToUndo: "nothing to undo"
        case .nothingToRedo: "nothing to redo"
        case let .conflict(command, reason): "cannot undo or redo \(command): \(reason)"
        }
    }
}
