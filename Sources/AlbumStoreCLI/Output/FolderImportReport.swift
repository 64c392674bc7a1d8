import AlbumStore

/// What `albumstore import FOLDER` says when it is done: each file or folder it could not take
/// whole (the first 20, as `PATH: reason`), the albums it would make (a dry run, on stdout), and
/// one summary line.
struct FolderImportReport {
    let summary: FolderImportSummary
    let rejectsPath: String?

    /// How many problems are listed on stderr; all go to the rejects file.
    static let problemsShown = 20

    func printProblems() {
        for problem in summary.problems.prefix(Self.problemsShown) { inform(problem.description) }
        let more = summary.problems.count - Self.problemsShown
        if more > 0 {
            inform("… and \(Counted(more, "more file")) not taken whole"
                + (rejectsPath.map { " (all are in \($0))" } ?? " (--rejects FILE lists them all)"))
        }
        for album in summary.albumsGone {
            inform("Album \(album.id), \(album.artist) — \(album.title): its files are gone"
                + (summary.pruned ? "; deleted (`albumstore undo` brings it back)" : "; --prune deletes it"))
        }
    }

    /// The albums the folder makes, a row each, with why their tracks were grouped so.
    func printAlbums() throws {
        let rows = summary.albums.map { album in
            [album.artist, album.title, album.year.map(String.init) ?? "", "\(album.trackCount)", "\(album.discCount)",
             album.coverSource ?? "", album.change.rawValue, album.grouping]
        }
        try TablePrinter.print(
            heading: ["Artist", "Album", "Year", "Tracks", "Discs", "Cover", "Change", "Grouped by"], rows: rows,
            fit: FormatOptions.stdoutFit)
    }

    /// `Imported ~/Music: 20,000 files (20,000 read), 2,000 albums added, ...`.
    var line: String {
        var counts = ["\(Counted(summary.filesFound, "file")) (\(summary.filesRead) read)"]
        counts.append("\(Counted(summary.albumsAdded, "album")) added")
        if summary.albumsUpdated > 0 { counts.append("\(summary.albumsUpdated) updated") }
        if summary.albumsUnchanged > 0 { counts.append("\(summary.albumsUnchanged) unchanged") }
        if summary.coversSet > 0 { counts.append("\(Counted(summary.coversSet, "cover")) set") }
        if summary.filesGone > 0 { counts.append("\(Counted(summary.filesGone, "file")) gone") }
        if !summary.albumsGone.isEmpty {
            counts.append("\(Counted(summary.albumsGone.count, "album")) without files" + (summary.pruned ? " deleted" : ""))
        }
        if summary.untaggedFiles > 0 {
            counts.append("\(Counted(summary.untaggedFiles, "untagged file")) named after " + (summary.untaggedFiles == 1 ? "its folder" : "their folder"))
        }
        if summary.skipped > 0 { counts.append("\(summary.skipped) skipped") }
        let head = summary.dryRun ? "Dry run of \(summary.folder), nothing changed; it would give" : "Imported \(summary.folder)"
        return "\(head): " + counts.joined(separator: ", ") + "."
    }
}
