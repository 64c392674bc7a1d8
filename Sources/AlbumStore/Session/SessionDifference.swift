/// One item that differs between two session states: its value in each (`nil`: none there).
public struct SessionDifference: Sendable, Hashable {
    public var item: SessionItem
    public var before: JSONValue?
    public var after: JSONValue?

    public init(item: SessionItem, before: JSONValue?, after: JSONValue?) {
        self.item = item
        self.before = before
        self.after = after
    }

    /// The items whose values differ from `before` to `after`, in `SessionItem` order.
    public static func between(_ before: SessionState, _ after: SessionState) -> [SessionDifference] {
        Set(before.items + after.items).sorted().compactMap { item in
            before[item] == after[item] ? nil : SessionDifference(item: item, before: before[item], after: after[item])
        }
    }
}
