/// The rules for an order of tab identifiers: what `setTabOrder` and a snapshot file accept.
enum TabOrder {
    /// At most this many tabs, and this many UTF-8 bytes an identifier: state is small.
    static let maxCount = 1_000
    static let maxIdentifierBytes = 256

    /// Why `tabs` is not an acceptable order (`nil` when it is): an empty, overlong or repeated
    /// identifier, or too many.
    static func problem(in tabs: [String]) -> String? {
        if tabs.count > maxCount { return "\(tabs.count) tabs, more than the \(maxCount) an order may have" }
        var seen = Set<String>()
        for (position, tab) in tabs.enumerated() {
            if tab.isEmpty { return "tab \(position) is an empty identifier" }
            if tab.utf8.count > maxIdentifierBytes {
                return "tab \(position) is longer than \(maxIdentifierBytes) bytes"
            }
            if !seen.insert(tab).inserted { return "tab \(position) repeats \"\(tab)\"" }
        }
        return nil
    }

    /// As the snapshot file and the table keep it: an array of strings.
    static func json(_ tabs: [String]) -> JSONValue { .array(tabs.map { .string($0) }) }
}
