/// The rules for an app's own session keys and their values.
enum SessionKey {
    /// A key's name: 1 to this many UTF-8 bytes, no control characters.
    static let maxNameBytes = 256
    /// A value's size as compact JSON: state is small; blobs belong elsewhere.
    static let maxValueBytes = 65_536

    /// Why `name` cannot be a key (`nil` when it can).
    static func problem(inName name: String) -> String? {
        if name.isEmpty { return "a key cannot be empty" }
        if name.utf8.count > maxNameBytes { return "a key is at most \(maxNameBytes) bytes" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a key cannot hold control characters"
        }
        return nil
    }

    /// Why `value` cannot be stored (`nil` when it can): its size.
    static func problem(inValue value: JSONValue) -> String? {
        let size = value.jsonData.count
        return size > maxValueBytes ? "the value is \(size) bytes of JSON, more than the \(maxValueBytes) a key may hold" : nil
    }
}
