/// Which album field each source column (or key) of a catalog feeds, worked out once per column
/// as the reader names them.
///
/// A column is looked up in the caller's mapping first (`--map`, case-insensitive), then by
/// `AlbumField(name:)` with its aliases. `index` and `id` columns are known but ignored: ids are
/// the library's own. When two columns feed one field, the one with the higher `rank` wins:
/// a mapped column over any other, `album artist` over `artist` (the Music app groups albums by
/// album artist), and the vaguer `name` and `date` only when nothing better is there.
struct ColumnMapping {
    struct Target: Equatable {
        var field: AlbumField
        var rank: Int
    }

    /// The caller's mapping, by lower-cased source name.
    private let explicit: [String: AlbumField]
    /// Per column index: its target, `nil` for an ignored or unknown column.
    private(set) var targets: [Target?] = []
    /// The columns that map to no field, in the order met (not `index` and `id`).
    private(set) var unknown: [String] = []

    init(mapping: [String: AlbumField]) {
        var explicit: [String: AlbumField] = [:]
        for (name, field) in mapping { explicit[name.lowercased()] = field }
        self.explicit = explicit
    }

    /// Brings the targets up to `columns` (readers only ever add columns at the end).
    @inline(__always)
    mutating func update(to columns: [String]) {
        if targets.count < columns.count { add(columns[targets.count...]) }
    }

    private mutating func add(_ columns: ArraySlice<String>) {
        for name in columns {
            let target = target(of: name)
            targets.append(target)
            if target == nil && !Self.ignored(name) { unknown.append(name) }
        }
    }

    private func target(of name: String) -> Target? {
        if let field = explicit[name.lowercased()] ?? explicit[name.trimmed.lowercased()] {
            return field == .index || field == .id ? nil : Target(field: field, rank: 3)
        }
        guard let field = AlbumField(name: name), field != .index, field != .id else { return nil }
        return Target(field: field, rank: Self.rank(of: AlbumField.normalized(name), for: field))
    }

    /// Names that map to `index` or `id`: known, and left out on purpose.
    private static func ignored(_ name: String) -> Bool {
        AlbumField(name: name).map { $0 == .index || $0 == .id } ?? false
    }

    private static func rank(of normalizedName: String, for field: AlbumField) -> Int {
        switch (field, normalizedName) {
        case (.artist, "albumartist"): 2
        case (.title, "name"), (.year, "date"): 0
        default: 1
        }
    }
}
