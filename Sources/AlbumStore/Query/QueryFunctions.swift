import FoundationEssentials
internal import AlbumSQLite

/// The SQL functions the query language's SQL calls, registered on every connection of a
/// library (readers too). All are deterministic and answer NULL or no match, never fail, for a
/// NULL or a value of the wrong type another program wrote.
///
/// They are the library's own: the `sqlite3` shell lacks them, so nothing stored (no trigger,
/// index or view) may call them. The shell's own `regexp` (3.38+) takes the same arguments.
enum QueryFunctions {
    /// `albumstore_contains(text, needle)`: 1 when the fold of `text` (`FoldedText`) holds
    /// `needle`, which the caller folded; 0 for a NULL `text`.
    static let contains = "albumstore_contains"
    /// `albumstore_sort_key(text)`: the fold of `text`, for ordering without case or diacritics.
    static let sortKey = "albumstore_sort_key"
    /// `albumstore_artist_sort_key(text)`: the sort key without a leading "the ", so that
    /// "The Cure" files under C, as record shops and players do.
    static let artistSortKey = "albumstore_artist_sort_key"
    /// `regexp(pattern, text)`, what `text REGEXP pattern` calls: 1 when the POSIX extended regular
    /// expression (`POSIXRegex`) matches somewhere in `text`; 0 for a NULL `text`. Fails the
    /// statement once the query's `RegexBudget` is spent.
    static let regexp = "regexp"

    static func register(on connection: Connection) throws(SQLiteError) {
        // Rows read in an index's order come with the same value again and again (a genre
        // index: a million rows, a dozen genres): the last answer is kept for the next call.
        let lastMatch = LastMatch()
        try connection.createFunction(contains, argumentCount: 2) { arguments in
            guard arguments.count == 2, case .text(let needle) = arguments[1] else { return .integer(0) }
            guard let text = arguments[0].text else { return .integer(0) }
            return .integer(lastMatch.answer(text, needle) { searchFold(text).contains(subsequence: Array(needle.utf8)) } ? 1 : 0)
        }
        try connection.createFunction(sortKey, argumentCount: 1) { arguments in
            guard let text = arguments.first?.text else { return .null }
            return .text(FoldedText.fold(text))
        }
        try connection.createFunction(artistSortKey, argumentCount: 1) { arguments in
            guard let text = arguments.first?.text else { return .null }
            return .text(artistSortKey(text))
        }
        // One connection runs one statement's calls at a time, on one thread: a cache of its own
        // compiles each pattern of a query once, however the query's patterns alternate by row.
        let cache = RegexCache()
        try connection.createFunction(regexp, argumentCount: 2) { arguments in
            guard arguments.count == 2, case .text(let pattern) = arguments[0], let text = arguments[1].text,
                  let expression = cache.expression(for: pattern)
            else { return .integer(0) }
            try RegexBudget.current?.spend(on: pattern)
            return .integer(expression.matches(text) ? 1 : 0)
        }
    }

    /// The fold of `text` as substring matches compare it, as UTF-8: `FoldedText`'s, with Greek
    /// final sigma (ς) made σ, which lower-casing leaves apart (ΜΙΚΗΣ lowers to μικησ). Both are
    /// two bytes, CF 82 and CF 83, so the bytes are changed in place.
    static func searchFold(_ text: String) -> [UInt8] {
        var bytes = Array(FoldedText.fold(text).utf8)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            if bytes[index] == 0xCF && bytes[index + 1] == 0x82 { bytes[index + 1] = 0x83 }
            index += 1
        }
        return bytes
    }

    /// The fold of `artist` without a leading "the " (but "The" alone stays).
    static func artistSortKey(_ artist: String) -> String {
        let folded = FoldedText.fold(artist)
        guard folded.hasPrefix("the "), folded.count > 4 else { return folded }
        return String(folded.dropFirst(4))
    }

    /// The last `contains` call's text, needle and answer.
    private final class LastMatch {
        private var text = "", needle = "", answer = false, isSet = false

        func answer(_ text: String, _ needle: String, _ compute: () -> Bool) -> Bool {
            if isSet && text == self.text && needle == self.needle { return answer }
            (self.text, self.needle, answer, isSet) = (text, needle, compute(), true)
            return answer
        }
    }

    /// The compiled expressions of the patterns seen last, as many as a query can hold.
    private final class RegexCache {
        private var expressions: [String: POSIXRegex?] = [:]

        /// `nil` for a pattern the query's parser refuses (`RegexShape`) or that does not compile.
        func expression(for pattern: String) -> POSIXRegex? {
            if let expression = expressions[pattern] { return expression }
            if expressions.count >= AlbumQuery.maximumTerms { expressions.removeAll() }
            let expression = RegexShape.problem(in: pattern) == nil ? try? POSIXRegex(pattern) : nil
            expressions[pattern] = expression
            return expression
        }
    }
}

extension [UInt8] {
    /// Whether `needle` occurs in a row here (an empty needle always does).
    fileprivate func contains(subsequence needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard count >= needle.count else { return false }
        for start in 0...(count - needle.count) where self[start] == first {
            if self[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
