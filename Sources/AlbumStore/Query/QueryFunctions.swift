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
        // Called once a row a query reads, so it reads the text where SQLite holds it and folds
        // it without allocating: copying each argument, and three arrays a call, took two thirds
        // of a count of `title:moon` over a million albums.
        var search = SubstringSearch()
        try connection.createLendingFunction(contains, argumentCount: 2) { arguments in
            let found = arguments.withUTF8(ofText: 1) { needle in
                if let found = arguments.withUTF8(ofText: 0, { search.contains(needle, in: $0) }) { return found }
                // A number another program stored is looked in as its digits.
                guard var text = arguments[0].text else { return false }
                return text.withUTF8 { search.contains(needle, in: $0) }
            }
            return .integer(found == true ? 1 : 0)
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
        var text = text, bytes: [UInt8] = []
        text.withUTF8 { appendSearchFold(of: $0, to: &bytes) }
        return bytes
    }

    /// Appends the fold of `text` as substring matches compare it (`searchFold`) to `output`.
    /// `text` is UTF-8; an invalid sequence reads as U+FFFD, as `String(decoding:as:)` reads it.
    static func appendSearchFold(of text: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        // FoldedText.fold's three paths, on the bytes: ASCII holds no sigma.
        if FoldedText.appendASCIIFold(text, to: &output) { return }
        let start = output.count
        if !FoldedText.appendLatin1Fold(text, to: &output) {
            output.append(contentsOf: FoldedText.foldUnicode(String(decoding: text, as: UTF8.self)).utf8)
        }
        var index = start
        while index + 1 < output.endIndex {
            if output[index] == 0xCF && output[index + 1] == 0x82 { output[index + 1] = 0x83 }
            index += 1
        }
    }

    /// The fold of `artist` without a leading "the " (but "The" alone stays).
    static func artistSortKey(_ artist: String) -> String {
        let folded = FoldedText.fold(artist)
        guard folded.hasPrefix("the "), folded.count > 4 else { return folded }
        return String(folded.dropFirst(4))
    }

    /// `contains` on one connection, whose calls come one at a time, on one thread. The last
    /// text's answer is kept for the next call: rows read in an index's order come with the same
    /// value again and again (a genre index: a million rows, a dozen genres). ASCII text (most
    /// titles, artists and genres) is folded on the stack; other text into a buffer kept from call
    /// to call.
    struct SubstringSearch {
        private var needle: [UInt8] = [], folded: [UInt8] = [], lastText: [UInt8] = []
        private var lastAnswer = false, hasLast = false

        /// Whether the fold of `text` (`searchFold`) holds `needle`, which the caller folded.
        mutating func contains(_ needle: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Bool {
            if !Self.equal(needle, self.needle) {
                self.needle = Array(needle)
                hasLast = false
            }
            if hasLast && Self.equal(text, lastText) { return lastAnswer }
            let ascii = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count) { buffer in
                FoldedText.foldASCII(text, into: buffer).map { Self.find(needle, in: UnsafeBufferPointer(rebasing: buffer[..<$0])) }
            }
            if let ascii {
                lastAnswer = ascii
            } else {
                folded.removeAll(keepingCapacity: true)
                appendSearchFold(of: text, to: &folded)
                lastAnswer = folded.withUnsafeBufferPointer { Self.find(needle, in: $0) }
            }
            lastText.removeAll(keepingCapacity: true)
            lastText.append(contentsOf: text)
            hasLast = true
            return lastAnswer
        }

        /// Whether `needle` occurs in `haystack` (an empty needle always does).
        static func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let first = needle.first else { return true }
            guard haystack.count >= needle.count else { return false }
            search: for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                for offset in 1..<needle.count where haystack[start + offset] != needle[offset] { continue search }
                return true
            }
            return false
        }

        /// Whether `bytes` are those of `array`.
        private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ array: [UInt8]) -> Bool {
            guard bytes.count == array.count else { return false }
            return array.withUnsafeBufferPointer { array in
                for index in 0..<array.count where bytes[index] != array[index] { return false }
                return true
            }
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
