/// A table whose committed changes observers are told of: what `Library.observe(_:_:)` follows.
/// A type rather than a name, so that a misspelt table does not compile instead of never
/// updating. `name` is the key of its changes in `ChangeSet.tables`.
public enum ObservedTable: String, Sendable, Hashable, CaseIterable {
    /// The albums: their fields and their order.
    case albums
    /// The covers of the albums.
    case covers
    /// The current album and the tab orders (`Library.session`).
    case sessionState = "session_state"
    /// The app's own session keys.
    case sessionKeys = "session_keys"
    /// The named snapshots of the session.
    case sessionSnapshots = "session_snapshots"

    /// The table's name in the file and in `ChangeSet.tables`.
    public var name: String { rawValue }
}
