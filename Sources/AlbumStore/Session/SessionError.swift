/// Why a session command was refused, or stored state could not be read. Nothing was changed.
public enum SessionError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A tab order with no tab, too many, or an identifier that is empty, padded or repeated.
    case invalidTabOrder(reason: String)
    /// A key's name or value that cannot be stored.
    case invalidKey(String, reason: String)
    /// There is no album to make current: the library is empty.
    case noAlbums
    /// No snapshot has this name.
    case noSuchSnapshot(String)
    /// A snapshot with this name exists already; names are unique.
    case snapshotExists(String)
    /// A name that cannot name a snapshot: empty, past 128 UTF-8 bytes, or holding a control character.
    case invalidSnapshotName(String, reason: String)
    /// A snapshot file that cannot be imported: not JSON, truncated, foreign, wrong-typed, too
    /// large or newer than this AlbumStore. `place` is where in it (a JSON path, or empty).
    case badSnapshotFile(source: String, place: String, reason: String)
    /// A stored value another program wrote that the library cannot read; `item` names it.
    case unreadableStoredValue(item: String, reason: String)

    /// The refusal in one line, naming the key, snapshot or file.
    public var description: String {
        switch self {
        case let .invalidTabOrder(reason):
            "tab order: \(reason)"
        case let .invalidKey(key, reason):
            "key \"\(key)\": \(reason)"
        case .noAlbums:
            "there is no album to make current: the library is empty"
        case let .noSuchSnapshot(name):
            "no snapshot named \"\(name)\""
        case let .snapshotExists(name):
            "a snapshot named \"\(name)\" exists already"
        case let .invalidSnapshotName(name, reason):
            "snapshot name \"\(name)\": \(reason)"
        case let .badSnapshotFile(source, place, reason):
            "\(source): \(place.isEmpty ? "" : "\(place): ")\(reason)"
        case let .unreadableStoredValue(item, reason):
            "the stored \(item) cannot be read (\(reason)); save it again or unset it"
        }
    }
}
