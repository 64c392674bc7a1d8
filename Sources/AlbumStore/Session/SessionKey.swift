/// The rules for an app's own session keys and their values.
enum SessionKey {
    /// A key's name: 1 to this many UTF-8 bytes, no control characters.
    static let maxNameBytes = 256
    /// A value's size as compact JSON: state is small; blobs belong elsewhere.
    static let maxValueBytes = 65_536

    /// Why `name` cannot be a key (`nil` when it can).
    static func problem(inName name: String) -> String? {
        problem(inName: name, calling: "a key", maxBytes: maxNameBytes)
    }

    /// Why `name` cannot name what `noun` says (a key, a snapshot): empty, longer than
    /// `maxBytes` of UTF-8, or holding a control character (names are printed on one line).
    static func problem(inName name: String, calling noun: String, maxBytes: Int) -> String? {
        if name.isEmpty { return "\(noun) cannot be empty" }
        if name.utf8.count > maxBytes { return "\(noun) is at most \(maxBytes) bytes" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "\(noun) cannot hold control characters"
        }
        return nil
    }

    /// Why `value` cannot be stored (`nil` when it can): its size.
    static func problem(inValue value: JSONValue) -> String? {
        let size = value.jsonData.count
        return size > maxValueBytes ? "the value is \(size) bytes of JSON, more than the \(maxValueBytes) a key may hold" : nil
    }
}
