import AlbumStore
import ArgumentParser

/// The query arguments `query`, `stats` and `export` share, and their shell completion: the
/// fields a query can name, as `field:`.
struct QueryTerms: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "Terms of the query (albumstore query --help describes them); none: every album.", valueName: "term"),
        completion: .custom { _, _, prefix in QueryTerms.completions(for: prefix) })
    var terms: [String] = []

    /// The query the terms make. A term in another tool's syntax (`artist=miles`) gets a note
    /// on stderr saying how to write it here (`QueryTermHint`).
    /// - Throws: `ExitCode(2)` after printing where the query does not parse.
    func query() throws -> AlbumQuery {
        for hint in terms.compactMap(QueryTermHint.hint(for:)) { inform("albumstore: hint: " + hint) }
        return try QueryErrorMessage.parsing { try AlbumQuery(parsingArguments: terms) }
    }

    /// `field:` for every queryable field starting with `prefix` (after a `^`).
    static func completions(for prefix: String) -> [String] {
        guard !prefix.contains(":") else { return [] }
        let negation = prefix.hasPrefix("^") ? "^" : ""
        let typed = prefix.dropFirst(negation.count)
        return AlbumField.queryable.map { negation + $0.name + ":" }.filter { $0.dropFirst(negation.count).hasPrefix(typed) }
    }
}

/// `--sort`, shared by `query` and `export`.
struct SortOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Sort by these fields, each :asc (default) or :desc, e.g. year:desc,artist. Case and accents are "
                + "ignored, missing values come last, and by artist a leading \"The\" is skipped (The Cure files "
                + "under C). Default: the library's own order.",
            valueName: "fields"),
        completion: .list(AlbumField.sortable.flatMap { [$0.name, $0.name + ":desc"] }))
    var sort: String?

    /// The sort `--sort` asks for, else the list order.
    /// - Throws: `ExitCode(2)` after printing where it does not parse.
    func parsed() throws -> AlbumSort {
        guard let sort else { return .listOrder }
        return try QueryErrorMessage.parsing(context: "--sort") { try AlbumSort(parsing: sort) }
    }
}
