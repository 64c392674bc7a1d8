/// Reads a `JSONValue` of a known shape, naming the place of a wrong type or a missing member
/// (`state.tab_order[2]`), so a bad file or stored value is reported where it is wrong.
struct JSONShape {
    let value: JSONValue
    /// Where `value` is, as a JSON path from the document's root (empty: the root).
    let place: String

    /// A value of the wrong type or a missing member.
    struct Mismatch: Error {
        let place: String
        let reason: String
    }

    func mismatch(_ expected: String) -> Mismatch {
        Mismatch(place: place, reason: "expected \(expected), found \(value.kind)")
    }

    func members() throws -> [String: JSONValue] {
        guard case let .object(members) = value else { throw mismatch("an object") }
        return members
    }

    /// The member `name`, `nil` when missing or null.
    func optionalMember(_ name: String) throws -> JSONShape? {
        switch try members()[name] {
        case nil, .null?: nil
        case let member?: JSONShape(value: member, place: path(name))
        }
    }

    func member(_ name: String) throws -> JSONShape {
        guard let member = try members()[name] else {
            throw Mismatch(place: place, reason: "the member \"\(name)\" is missing")
        }
        return JSONShape(value: member, place: path(name))
    }

    func elements() throws -> [JSONShape] {
        guard case let .array(elements) = value else { throw mismatch("an array") }
        return elements.enumerated().map { JSONShape(value: $1, place: "\(place)[\($0)]") }
    }

    func string() throws -> String {
        guard case let .string(text) = value else { throw mismatch("a string") }
        return text
    }

    func integer() throws -> Int64 {
        guard case let .integer(number) = value else { throw mismatch("an integer") }
        return number
    }

    /// An integer that fits `Int` (an index another program may have set to anything).
    func int() throws -> Int {
        guard let number = Int(exactly: try integer()) else { throw mismatch("an integer in range") }
        return number
    }

    private func path(_ name: String) -> String { place.isEmpty ? name : "\(place).\(name)" }
}
