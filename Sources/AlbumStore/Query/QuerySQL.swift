import FoundationEssentials
internal import AlbumSQLite

/// The SQL of a query: a WHERE clause and ORDER BY over `albums`, with every value a bound
/// parameter. Only names from the code (columns of `AlbumField`, the functions of
/// `QueryFunctions`) are ever written into the SQL text; user text goes to `arguments`.
///
/// Full-text terms of an alternative become one FTS5 expression, itself bound: each term is a
/// double-quoted FTS5 string (its quotes doubled), so no character of it is FTS5 syntax. A term
/// in a script written without spaces (`UnspacedScripts`) is a substring match instead.
struct QuerySQL {
    /// `WHERE ...`, or empty for every album.
    var whereClause = ""
    var arguments: [SQLiteValue] = []

    init(_ query: AlbumQuery) throws(QueryError) {
        // SQLite refuses expressions 1000 deep; conditions are joined as a balanced tree
        // (`Self.joined`), so the depth grows with the logarithm of the terms, not with them.
        let terms = query.alternatives.reduce(0) { $0 + $1.count }
        guard terms <= AlbumQuery.maximumTerms else {
            throw QueryError("the query has \(terms) terms; at most \(AlbumQuery.maximumTerms) can run")
        }
        var alternatives: [String] = []
        for terms in query.alternatives {
            alternatives.append(try alternative(terms))
        }
        guard !alternatives.isEmpty else { return }
        whereClause = "WHERE " + Self.joined(alternatives, by: "OR")
    }

    /// One alternative's conditions, ANDed. Its positive full-text terms share one MATCH.
    private mutating func alternative(_ terms: [AlbumQuery.Term]) throws(QueryError) -> String {
        var conditions: [String] = []
        var phrases: [String] = []
        for term in terms {
            if case .text(let text, let prefix) = term.condition, Self.hasWordCharacters(text),
               !UnspacedScripts.appear(in: text) {
                let phrase = Self.phrase(text, prefix: prefix)
                if term.isNegated {
                    conditions.append("id NOT IN (SELECT rowid FROM album_search WHERE album_search MATCH ?)")
                    arguments.append(.text(phrase))
                } else {
                    phrases.append(phrase)
                }
                continue
            }
            let condition = try sql(for: term.condition)
            conditions.append(term.isNegated ? "NOT ifnull(\(condition), 0)" : condition)
        }
        if !phrases.isEmpty {
            conditions.append("id IN (SELECT rowid FROM album_search WHERE album_search MATCH ?)")
            arguments.append(.text(phrases.joined(by: " ")))
        }
        return Self.joined(conditions, by: "AND")
    }

    /// `parts` joined by `operation` as a balanced tree, `(a AND b) AND (c AND d)`, in their
    /// order (the order of their parameters): SQLite nests a chain `a AND b AND c ...` one level
    /// deeper per operand.
    static func joined(_ parts: [String], by operation: String) -> String {
        guard parts.count > 1 else { return parts.first ?? "1" }
        let middle = parts.count / 2
        return "(\(joined(Array(parts[..<middle]), by: operation))) \(operation) (\(joined(Array(parts[middle...]), by: operation)))"
    }

    /// `WHERE` with the query's condition and `extra` (SQL of the code's own) both.
    func whereClause(and extra: String) -> String {
        whereClause.isEmpty ? "WHERE \(extra)" : "\(whereClause.replacing("WHERE ", with: "WHERE (", maxReplacements: 1))) AND \(extra)"
    }

    /// The SQL of one condition other than a full-text one; its values appended to `arguments`.
    private mutating func sql(for condition: AlbumQuery.Condition) throws(QueryError) -> String {
        switch condition {
        case .text(let text, _) where UnspacedScripts.appear(in: text):
            // The index holds a run of such letters as one word, so a part of one (坂本 of
            // 坂本龍一) is looked for in the text itself. Built-in functions keep the scan of
            // every row at C's speed where the fold would call into Swift per row, and like the
            // index they keep kana voicing marks and Thai vowels, which the fold drops. `lower()`
            // folds ASCII letters only, so the needle's are folded the same.
            let needle = Self.asciiLowercased(text.trimmingWhitespace())
            let hasLetters = needle.utf8.contains { $0 &- 0x61 < 26 }
            let title = hasLetters ? "lower(title)" : "title", artist = hasLetters ? "lower(artist)" : "artist"
            arguments.append(.text(needle))
            arguments.append(.text(needle))
            return "(instr(\(title), ?) > 0 OR instr(\(artist), ?) > 0)"
        case .text(let text, _):
            // No word to search for (`!!!`, `%`): the text itself, in the title or the artist.
            let needle = String(decoding: QueryFunctions.searchFold(text), as: UTF8.self)
            arguments.append(.text(needle))
            arguments.append(.text(needle))
            return "(\(QueryFunctions.contains)(title, ?) OR \(QueryFunctions.contains)(artist, ?))"
        case .contains(let field, let value):
            let column = try column(field, .text, "a substring match")
            arguments.append(.text(String(decoding: QueryFunctions.searchFold(value), as: UTF8.self)))
            return "\(QueryFunctions.contains)(\(column), ?)"
        case .equals(let field, let value):
            let column = try column(field, nil, "an exact match")
            if field.queryKind == .number {
                guard let number = Int(value) else { throw QueryError("\(field.name) takes a number, not \"\(value)\"") }
                arguments.append(.integer(Int64(number)))
                return "\(column) = ?"
            }
            arguments.append(.text(value))
            guard field == .artist else { return "\(column) = ?" }
            // The artist index is NOCASE: equal ignoring ASCII case narrows through it, then exact.
            arguments.append(.text(value))
            return "(\(column) = ? COLLATE NOCASE AND \(column) = ?)"
        case .regex(let field, let pattern):
            let column = try column(field, .text, "a regular expression")
            if let problem = QueryParser.regexProblem(pattern) {
                throw QueryError("bad regular expression \"\(pattern)\": \(problem)")
            }
            arguments.append(.text(pattern))
            return "\(QueryFunctions.regexp)(?, \(column))"
        case .range(let field, let from, let through):
            let column = try column(field, .number, "a range")
            switch (from, through) {
            case let (from?, through?) where from == through:
                arguments.append(.integer(Int64(from)))
                return "\(column) = ?"
            case let (from?, through?):
                arguments.append(.integer(Int64(from)))
                arguments.append(.integer(Int64(through)))
                return "\(column) BETWEEN ? AND ?"
            case let (from?, nil):
                arguments.append(.integer(Int64(from)))
                return "\(column) >= ?"
            case let (nil, through?):
                arguments.append(.integer(Int64(through)))
                return "\(column) <= ?"
            case (nil, nil):
                return "\(column) IS NOT NULL"
            }
        case .missing(let field):
            return "\(try column(field, nil, "a missing-value test")) IS NULL"
        }
    }

    /// The column of `field`, checked to take a condition of `kind` (any queryable field for `nil`).
    private func column(_ field: AlbumField, _ kind: AlbumField.QueryKind?, _ what: String) throws(QueryError) -> String {
        guard let fieldKind = field.queryKind, let column = field.column, kind == nil || kind == fieldKind else {
            throw QueryError("the field \(field.name) does not take \(what)")
        }
        return column
    }

    /// `text` as one FTS5 string: words in order and adjacent; `*` after it makes the last
    /// word a prefix. Inside double quotes only a double quote means something, written twice.
    /// Doubled byte by byte: a quote followed by a combining mark is one Character, which a
    /// replacement of the Character `"` would leave single, closing the string early.
    static func phrase(_ text: String, prefix: Bool) -> String {
        var bytes: [UInt8] = [0x22]
        for byte in text.utf8 {
            bytes.append(byte)
            if byte == 0x22 { bytes.append(byte) }
        }
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self) + (prefix ? "*" : "")
    }

    /// `text` with A-Z made a-z, as SQLite's `lower()` does without ICU.
    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Whether the tokenizer finds a word in `text` (a letter or a digit); text without one
    /// would make an empty FTS5 phrase, which matches nothing.
    static func hasWordCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
    }
}

extension QuerySQL {
    /// `ORDER BY` for `sort`: each key with missing values last, then the list order.
    ///
    /// A field every alternative of `query` requires to be there needs no "missing last" key,
    /// which lets an index on it give the order (`genre:=Rock year:1990..1999 --sort year`).
    static func orderClause(_ sort: AlbumSort, for query: AlbumQuery) -> String {
        var parts: [String] = []
        for key in sort.keys {
            guard let column = key.field.column else { continue }
            let direction = key.descending ? " DESC" : ""
            let value = switch key.field {
            case .artist: "\(QueryFunctions.artistSortKey)(\(column))"
            case _ where key.field.queryKind == .text: "\(QueryFunctions.sortKey)(\(column))"
            default: column
            }
            if isOptional(key.field) && !query.requiresValue(of: key.field) { parts.append("\(column) IS NULL") }
            parts.append(value + direction)
        }
        return "ORDER BY " + (parts + ["position", "id"]).joined(by: ", ")
    }

    /// Whether the column may be NULL.
    private static func isOptional(_ field: AlbumField) -> Bool {
        switch field {
        case .genre, .year, .coverURL, .externalID: true
        default: false
        }
    }
}

extension AlbumQuery {
    /// Whether every album the query matches has a value for `field`: every alternative holds a
    /// term (not negated) that only an album with one can meet.
    func requiresValue(of field: AlbumField) -> Bool {
        !alternatives.isEmpty && alternatives.allSatisfy { terms in
            terms.contains { term in
                guard !term.isNegated, term.condition.field == field else { return false }
                if case .missing = term.condition { return false }
                return true
            }
        }
    }
}
