/// What happened to a row, as the change log records it (its `operation` column).
enum ChangeOperation: String, Sendable, Hashable, CaseIterable {
    case insert, update, delete
}
