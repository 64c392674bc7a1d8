/// One part of the session state: what a diff names, a restore can be limited to, and a change
/// set reports (the built-in items as rows of `session_state`, keys as rows of `session_keys`).
public enum SessionItem: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The saved current album (`SessionState.currentAlbum`).
    case currentAlbum
    /// The user's saved tab order (`SessionState.tabOrder`).
    case tabOrder
    /// The tab order that applies while none is saved (`SessionState.defaultTabOrder`).
    case defaultTabOrder
    /// One of the app's own values, by its key's name.
    case key(String)

    /// The built-in item's row id in `session_state` (`nil` for a key): fixed, so an observer can
    /// tell from a change set which item changed.
    public var rowID: Int64? {
        switch self {
        case .currentAlbum: 1
        case .tabOrder: 2
        case .defaultTabOrder: 3
        case .key: nil
        }
    }

    /// The built-in item's name in `session_state.item` and the snapshot file.
    var builtInName: String? {
        switch self {
        case .currentAlbum: "current_album"
        case .tabOrder: "tab_order"
        case .defaultTabOrder: "default_tab_order"
        case .key: nil
        }
    }

    static let builtIn: [SessionItem] = [.currentAlbum, .tabOrder, .defaultTabOrder]

    /// Parts by their short names: `current`, `tabs` (the tab order and its
    /// default), `key:NAME`, or any other word as a key's name.
    public static func parse(_ word: String) -> [SessionItem] {
        switch word {
        case "current": [.currentAlbum]
        case "tabs": [.tabOrder, .defaultTabOrder]
        case _ where word.hasPrefix("key:"): [.key(String(word.dropFirst(4)))]
        default: [.key(word)]
        }
    }

    /// `current album`, `tab order`, `default tab order`, `key NAME`.
    public var description: String {
        switch self {
        case .currentAlbum: "current album"
        case .tabOrder: "tab order"
        case .defaultTabOrder: "default tab order"
        case let .key(name): "key \(name)"
        }
    }

    /// Built-in items first, in their order, then keys by name.
    public static func < (lhs: SessionItem, rhs: SessionItem) -> Bool {
        switch (lhs.rowID, rhs.rowID) {
        case let (left?, right?): left < right
        case (_?, nil): true
        case (nil, _?): false
        case (nil, nil): lhs.keyName ?? "" < rhs.keyName ?? ""
        }
    }

    var keyName: String? { if case let .key(name) = self { name } else { nil } }
}
