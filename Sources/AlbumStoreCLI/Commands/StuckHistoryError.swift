import AlbumStore

/// An undo or redo that conflicts with a change made outside the history, with the way forward.
///
/// The library's `HistoryError.conflict` says what failed; how to get past it is the CLI's to
/// say, in its own commands: a conflict stays until the command is forgotten, so without this
/// the user would meet the same message on every `undo` with no hint of a way out.
struct StuckHistoryError: Error, CustomStringConvertible {
    let conflict: HistoryError
    let advice: String

    var description: String { "\(conflict); \(advice)" }

    /// Runs `body` (an undo or a redo), turning a conflict into this error with `advice`.
    static func advising<T>(_ advice: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as HistoryError {
            guard case .conflict = error else { throw error }
            throw StuckHistoryError(conflict: error, advice: advice)
        }
    }
}
