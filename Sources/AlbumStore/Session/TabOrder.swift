/// The rules for an order of tab identifiers: what `setTabOrder` and a snapshot file accept.
///
/// One rule for identifiers: each is non-empty, at most `maxIdentifierBytes` of UTF-8, with no
/// white space or control character at either end, and two that are canonically equal (Swift's
/// `String` equality: "é" composed or decomposed) are the same tab, so an order may not hold
/// both. An order to save holds at least one tab: to show the default order again, reset it.
enum TabOrder {
    /// At most this many tabs, and this many UTF-8 bytes an identifier: state is small.
    static let maxCount = 1_000
    static let maxIdentifierBytes = 256

    /// Why `tabs` is not an acceptable order (`nil` when it is): no tab (unless `allowingEmpty`,
    /// for an order read back as stored), an empty, overlong, padded or repeated identifier,
    /// or too many.
    static func problem(in tabs: [String], allowingEmpty: Bool = false) -> String? {
        if tabs.isEmpty, !allowingEmpty { return "an order needs at least one tab (to show the default order, reset the saved one)" }
        if tabs.count > maxCount { return "\(tabs.count) tabs, more than the \(maxCount) an order may have" }
        var seen = Set<String>()
        for (position, tab) in tabs.enumerated() {
            if tab.isEmpty { return "tab \(position) is an empty identifier" }
            if tab.utf8.count > maxIdentifierBytes {
                return "tab \(position) is longer than \(maxIdentifierBytes) bytes"
            }
            if isPadding(tab.unicodeScalars.first) || isPadding(tab.unicodeScalars.last) {
                return "tab \(position) starts or ends with white space or a control character"
            }
            if !seen.insert(tab).inserted { return "tab \(position) repeats \"\(tab)\"" }
        }
        return nil
    }

    private static func isPadding(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        return scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
    }

    /// As the snapshot file and the table keep it: an array of strings.
    static func json(_ tabs: [String]) -> JSONValue { .array(tabs.map { .string($0) }) }
}
