import AlbumStore

/// What `albumstore import` says when it is done: the rejected rows (the first 20, as
/// `FILE:LINE: field: reason`) and one summary line.
struct ImportReport {
    let summary: ImportSummary
    let rejectsPath: String?

    /// The rejections the summary carries, one line each on stderr, and how many more there were.
    func printRejections() {
        for rejection in summary.rejections { inform(rejection.description + Self.encodingHint(for: rejection.reason)) }
        let more = summary.rejected - summary.rejections.count
        if more > 0 {
            inform("… and \(Counted(more, "more rejected row"))"
                + (rejectsPath.map { " (all are in \($0))" } ?? " (--rejects FILE lists them all)"))
        }
    }

    /// The option to try after a reason that says the text is not UTF-8 (the library's readers
    /// say so and no more).
    static func encodingHint(for reason: String) -> String {
        reason.hasSuffix("not valid UTF-8") ? "; try --encoding windows-1252" : ""
    }

    /// `Imported albums.csv (csv, utf-8): 12 inserted, 3 skipped as duplicates, ...`: the
    /// inserted count always, the others only when there are some.
    var line: String {
        var counts = ["\(summary.inserted) inserted"]
        if summary.updated > 0 { counts.append("\(summary.updated) updated") }
        if summary.skippedDuplicates > 0 {
            counts.append("\(summary.skippedDuplicates) skipped as duplicates"
                + (summary.duplicatesWithinFile > 0 ? " (\(summary.duplicatesWithinFile) repeated within the file)" : ""))
        }
        if summary.rejected > 0 { counts.append("\(summary.rejected) rejected") }
        if summary.skippedNotMusicTotal > 0 {
            counts.append("\(summary.skippedNotMusicTotal) skipped as not music (" + summary.skippedNotMusic
                // The kinds are plurals ("videos", "TV shows"): one is the singular.
                .sorted { $0.key < $1.key }.map { "\(Counted($0.value, String($0.key.dropLast())))" }.joined(separator: ", ") + ")")
        }
        let head = summary.dryRun ? "Dry run of \(summary.file), nothing changed; it would give" : "Imported \(summary.file)"
        var line = "\(head) (\(summary.format.rawValue)"
            + (summary.delimiter.map { ", \(Self.delimiterName($0))-separated" } ?? "")
            + ", \(summary.encoding.rawValue)"
            + (summary.encodingWasGuessed ? ", a guess: --encoding sets it" : "") + "): " + counts.joined(separator: ", ")
        if !summary.ignoredColumns.isEmpty {
            line += "; ignored columns: " + Self.listing(summary.ignoredColumns)
        }
        return line + "."
    }

    /// What the import read but may have read wrong, one line each, before the summary: the
    /// lines of a UTF-8 file that were read as Windows-1252.
    var warnings: [String] {
        let count = summary.windows1252LineCount
        guard count > 0 else { return [] }
        let shown = summary.windows1252Lines.map(String.init)
        let more = count - shown.count
        let lines = more > 0 ? shown.joined(separator: ", ") + " and \(more) more"
            : shown.count == 1 ? shown[0] : shown.dropLast().joined(separator: ", ") + " and " + shown[shown.count - 1]
        return ["warning: \(summary.file): " + (count == 1 ? "line \(lines) is" : "lines \(lines) are")
            + " not UTF-8 and " + (count == 1 ? "was" : "were") + " read as Windows-1252, the rest as UTF-8 "
            + "(--encoding reads the whole file in one encoding)"]
    }

    /// `;`, `|`, or `tab`.
    static func delimiterName(_ delimiter: Character) -> String {
        delimiter == "\t" ? "tab" : String(delimiter)
    }

    /// The most ignored columns the summary names, and the most characters of each: a file may
    /// have a million columns, or names of a megabyte, and the line stays readable.
    static let listedColumns = 10
    static let listedNameLength = 40

    /// `a, b, c` or `a, b, ..., j and 12 more`, each name cut at `listedNameLength` characters.
    static func listing(_ names: [String]) -> String {
        let shown = names.prefix(listedColumns).map { name in
            name.count > listedNameLength ? name.prefix(listedNameLength - 1) + "…" : name
        }
        let more = names.count - shown.count
        return shown.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
    }
}
