/// A count and its noun, singular for one: `1 cover`, `2 covers`; with a verb, `1 album has`,
/// `3 albums have`. Every message that counts says it this way.
struct Counted: CustomStringConvertible {
    let description: String

    /// - Parameters:
    ///   - noun: The singular; the plural adds an s.
    ///   - singularVerb, pluralVerb: A verb that follows the noun and agrees with it.
    init(_ count: Int, _ noun: String, verb singularVerb: String? = nil, _ pluralVerb: String? = nil) {
        let one = count == 1
        let verb = (one ? singularVerb : pluralVerb).map { " " + $0 } ?? ""
        description = "\(count) \(noun)\(one ? "" : "s")\(verb)"
    }
}
