/// One item that differs between two session states: its value in each (`nil`: none there).
public struct SessionDifference: Sendable, Hashable {
    /// The item that differs.
    public var item: SessionItem
    /// Its value in the first state, `nil` when it has none there.
    package var before: JSONValue?
    /// Its value in the second state, `nil` when it has none there.
    package var after: JSONValue?

    /// Its value in the first state as compact JSON text (object keys sorted), `nil` when it has
    /// none there.
    public var beforeJSON: String? { before?.description }
    /// Its value in the second state as compact JSON text, `nil` when it has none there.
    public var afterJSON: String? { after?.description }

    /// A difference of `item` from `before` to `after`.
    package init(item: SessionItem, before: JSONValue?, after: JSONValue?) {
        self.item = item
        self.before = before
        self.after = after
    }

    /// The items whose values differ from `before` to `after`, in `SessionItem` order.
    ///
    /// - Parameters:
    ///   - before: The earlier state, e.g. a snapshot's.
    ///   - after: The later state, e.g. the current one.
    public static func between(_ before: SessionState, _ after: SessionState) -> [SessionDifference] {
        Set(before.items + after.items).sorted().compactMap { item in
            before[item] == after[item] ? nil : SessionDifference(item: item, before: before[item], after: after[item])
        }
    }
}

extension SessionDifference {
    /// Its JSON form, as `state diff --format json` and the server write it: `item`, `before`,
    /// `after`.
    package var json: JSONValue {
        .object(["item": .string("\(item)"), "before": before ?? .null, "after": after ?? .null])
    }
}
