/// The whole session state: what a snapshot copies and restores.
///
/// Its JSON form (the snapshot file's `state` object): `current_album` (`{"index", "album_id"}`
/// or null), `tab_order` and `default_tab_order` (arrays of strings, or null when not saved),
/// `keys` (an object of the app's keys and their values).
public struct SessionState: Sendable, Hashable {
    /// The saved current album, `nil` when none is saved.
    public var currentAlbum: CurrentAlbum?
    /// The saved tab order, `nil` when none is saved (the default order applies).
    public var tabOrder: [String]?
    /// The default tab order, `nil` when none is set (an empty order).
    public var defaultTabOrder: [String]?
    /// The app's own values, as JSON.
    package var keys: [String: JSONValue]

    /// A state with these values; nothing saved by default.
    package init(currentAlbum: CurrentAlbum? = nil, tabOrder: [String]? = nil, defaultTabOrder: [String]? = nil,
                keys: [String: JSONValue] = [:]) {
        self.currentAlbum = currentAlbum
        self.tabOrder = tabOrder
        self.defaultTabOrder = defaultTabOrder
        self.keys = keys
    }

    /// The names of the app's own keys, sorted.
    public var keyNames: [String] { keys.keys.sorted() }

    /// The app's value under `key`, decoded from its JSON; `nil` when the state has none.
    /// - Throws: `DecodingError` when the JSON is not a `T`.
    public func value<T: Decodable>(_ type: T.Type = T.self, forKey key: String) throws -> T? {
        try keys[key].map { try $0.decoded(as: type) }
    }

    /// The tab order in effect: the saved one, else the default.
    public var effectiveTabOrder: [String] { tabOrder ?? defaultTabOrder ?? [] }

    /// Every item that has a value, in `SessionItem` order.
    public var items: [SessionItem] {
        SessionItem.builtIn.filter { self[$0] != nil } + keys.keys.sorted().map { .key($0) }
    }

    /// An item's value as JSON, `nil` when it has none.
    package subscript(item: SessionItem) -> JSONValue? {
        switch item {
        case .currentAlbum: currentAlbum?.json
        case .tabOrder: tabOrder.map(TabOrder.json)
        case .defaultTabOrder: defaultTabOrder.map(TabOrder.json)
        case let .key(name): keys[name]
        }
    }

    /// The state as JSON (see the type's documentation).
    package var json: JSONValue {
        .object([
            "current_album": self[.currentAlbum] ?? .null,
            "tab_order": self[.tabOrder] ?? .null,
            "default_tab_order": self[.defaultTabOrder] ?? .null,
            "keys": .object(keys),
        ])
    }

    /// Reads the JSON form, checking every value as the library's setters would.
    /// - Throws: `JSONShape.Mismatch` naming the place of the first problem.
    init(json shape: JSONShape) throws {
        self.init()
        currentAlbum = try shape.optionalMember("current_album").map(Self.currentAlbum)
        tabOrder = try shape.optionalMember("tab_order").map(Self.tabs)
        defaultTabOrder = try shape.optionalMember("default_tab_order").map(Self.tabs)
        for (name, value) in try shape.optionalMember("keys")?.members() ?? [:] {
            let place = "\(shape.place.isEmpty ? "" : shape.place + ".")keys"
            if let problem = SessionKey.problem(inName: name) ?? SessionKey.problem(inValue: value) {
                throw JSONShape.Mismatch(place: place, reason: "\"\(name)\": \(problem)")
            }
            keys[name] = value
        }
    }

    static func currentAlbum(_ shape: JSONShape) throws -> CurrentAlbum {
        CurrentAlbum(index: try shape.member("index").int(), albumID: try shape.optionalMember("album_id")?.integer())
    }

    static func tabs(_ shape: JSONShape) throws -> [String] {
        let tabs = try shape.elements().map { try $0.string() }
        // An empty order saved by an earlier version reads back as it was saved.
        if let problem = TabOrder.problem(in: tabs, allowingEmpty: true) { throw JSONShape.Mismatch(place: shape.place, reason: problem) }
        return tabs
    }
}
