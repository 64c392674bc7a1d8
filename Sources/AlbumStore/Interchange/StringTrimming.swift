extension StringProtocol {
    /// Without leading and trailing white space (Unicode's: spaces, tabs, line breaks), as a
    /// header name, a sort field or a typed number is compared. Ours, not Foundation's
    /// `trimmingCharacters(in:)`, which needs its whole module (see scripts/release-build).
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
            return ""
        }
        return String(self[first...last])
    }
}
