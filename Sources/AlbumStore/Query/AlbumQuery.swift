/// A filter over the albums, as the query language writes it (`artist:bowie year:1990..1999
/// ^genre:jazz "free text"`) or as Swift code builds it.
///
/// An album matches when it matches every term of at least one alternative (terms AND together,
/// alternatives OR together); a query without alternatives matches every album. Build one
/// directly (`AlbumQuery([.init(.range(.year, from: 1990, through: 1999))])`) or parse the
/// language with `init(parsing:)`. Every value reaches SQLite as a bound parameter. A query
/// runs with at most `maximumTerms` terms in all, SQLite's expression depth allowing.
public struct AlbumQuery: Sendable, Hashable {
    /// Groups of terms, any of which an album may match in whole.
    public var alternatives: [[Term]]

    /// Every album.
    public static let all = AlbumQuery(anyOf: [])

    /// Albums matching every one of `terms` (all albums for none).
    public init(_ terms: [Term]) { alternatives = terms.isEmpty ? [] : [terms] }

    /// Albums matching every term of at least one of `alternatives`.
    public init(anyOf alternatives: [[Term]]) { self.alternatives = alternatives.filter { !$0.isEmpty } }

    /// The most terms, over all alternatives, a query can run with; more throw `QueryError`.
    public static let maximumTerms = 500

    /// Whether the query keeps every album.
    public var matchesEverything: Bool { alternatives.isEmpty }

    /// One condition, or its negation.
    public struct Term: Sendable, Hashable {
        /// What the term asks of an album.
        public var condition: Condition
        /// `^term`: albums that do not meet the condition (including those missing the field).
        public var isNegated: Bool

        /// A term asking `condition`, or its negation when `negated`.
        public init(_ condition: Condition, negated: Bool = false) {
            self.condition = condition
            isNegated = negated
        }
    }

    /// What a term asks of an album.
    ///
    /// Text comparisons other than `equals` and `regex` ignore case and diacritics (see the
    /// query language in docs/cli.md for the exact fold). A condition on a field it does not apply to
    /// (a range on `title`, anything on `index`) is refused with `QueryError` when the query runs.
    public enum Condition: Sendable, Hashable {
        /// Full-text search of titles and artists for `text`'s words, in order and adjacent;
        /// `prefix`: the last word may be the start of a longer one (`bow*`). Text with no
        /// letter or digit (`!!!`) is looked for literally, as a substring of either field.
        /// Text with a character of a script written without spaces (Japanese, Chinese, Korean,
        /// Thai...) is a substring of either field too, as written but for the case of ASCII
        /// letters: `坂本` finds `坂本龍一`, whatever `prefix`.
        case text(String, prefix: Bool = false)
        /// The field holds `value`, ignoring case and diacritics (`field:value`).
        case contains(AlbumField, String)
        /// The field is exactly `value` (`field:=value`); for numeric fields, the number.
        case equals(AlbumField, String)
        /// The field matches the POSIX extended regular expression (`field::pattern`), a leading
        /// `(?i)` ignoring case.
        ///
        /// Bounded in time: matching never backtracks, a pattern that could still make one match
        /// slow (a back-reference, counted repetitions of more than 255 copies, more than 1,000
        /// bytes) is refused, and a query's patterns may run for ten seconds in all; either way
        /// with `QueryError`.
        case regex(AlbumField, String)
        /// A numeric field within `from...through`, either bound open (`year:1990..1999`,
        /// `year:..1980`, `year:2000..`, `year:1994`).
        case range(AlbumField, from: Int?, through: Int?)
        /// The field has no value (`genre:`).
        case missing(AlbumField)
    }
}

extension AlbumQuery.Condition {
    /// The field the condition reads; `nil` for full-text search.
    public var field: AlbumField? {
        switch self {
        case .text: nil
        case .contains(let field, _), .equals(let field, _), .regex(let field, _), .range(let field, _, _),
             .missing(let field): field
        }
    }
}
