import FoundationEssentials

/// A snapshot (memento): a named, timestamped copy of the whole session state.
public struct Snapshot: Sendable, Hashable {
    /// The snapshot's unique name: 1 to 128 UTF-8 bytes, no control characters.
    public var name: String
    /// When it was taken (kept to the millisecond).
    public var takenAt: Date
    /// The session state as it was when taken.
    public var state: SessionState

    /// A snapshot with these values; the library makes its own with `Session.takeSnapshot`.
    public init(name: String, takenAt: Date, state: SessionState) {
        self.name = name
        self.takenAt = takenAt
        self.state = state
    }

    /// A snapshot name: 1 to this many UTF-8 bytes, no control characters.
    static let maxNameBytes = 128

    /// Why `name` cannot name a snapshot (`nil` when it can).
    static func problem(inName name: String) -> String? {
        SessionKey.problem(inName: name, calling: "a name", maxBytes: maxNameBytes)
    }

    /// The name a snapshot taken at `date` gets when none is given: `snapshot-` and the time
    /// to the second, UTC (`snapshot-2026-11-22T08:15:03Z`).
    static func defaultName(at date: Date) -> String {
        "snapshot-" + ISO8601Timestamp.string(from: date).prefix(19) + "Z"
    }
}

extension Snapshot {
    /// Its JSON form: `name`, `taken_at`, `state` (the snapshot file's fields).
    package var json: JSONValue {
        .object(["name": .string(name), "taken_at": .string(ISO8601Timestamp.string(from: takenAt)), "state": state.json])
    }
}
