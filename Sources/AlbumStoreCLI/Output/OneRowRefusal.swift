import AlbumStore

/// An import refused for one invalid row, said in one line: the row's place and reason, then
/// the refusal (`a.csv:3: field 2 is over 1 MiB; import refused, nothing changed`), as a refused
/// conflict is. With more rows, each gets its line and the refusal one more.
struct OneRowRefusal: Error, CustomStringConvertible {
    let rejection: ImportRejection

    /// The refusal when `summary` has exactly one rejected row.
    init?(_ summary: ImportSummary) {
        guard summary.rejected == 1, let rejection = summary.rejections.first else { return nil }
        self.rejection = rejection
    }

    var description: String {
        "\(rejection)\(ImportReport.encodingHint(for: rejection.reason)); import refused, nothing changed "
            + "(`--skip-invalid` imports the others)"
    }
}
