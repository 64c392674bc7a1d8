import AlbumStore
import ArgumentParser
import FoundationEssentials

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show every field of one album (and, for one made from a music folder, its folder, tracks, discs and length).",
        discussion: """
            Example: albumstore show 42 --format json

            \(TableLayout.help)
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The album's id.", completion: LibraryCompletion.albumID) var id: Int64
    @OptionGroup var output: FormatOptions

    func run() throws {
        let albums = try store.openLibrary(.readOnly).albums
        guard let album = try albums.album(id: id) else { throw AlbumError.notFound(id: id) }
        let index = try albums.index(of: id)
        guard output.format == .table else {
            return try AlbumPrinter.print([(index, album)], format: output.format, wide: output.wide)
        }
        // A line per field, labelled; no heading, the labels say it all.
        var rows = AlbumField.allCases.map { [$0.label, $0.text(in: album, index: index) ?? ""] }
        if let folder = try albums.folder(of: id) {
            let seconds = Int((folder.durationMS + 500) / 1000)
            rows += [
                ["Folder", folder.folder], ["Tracks", "\(folder.trackCount)"], ["Discs", "\(folder.discCount)"],
                ["Length", "\(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60)"],
                ["Release group", folder.musicBrainzReleaseGroupID ?? ""], ["Grouped by", folder.grouping],
            ]
        }
        try TablePrinter.print(
            heading: ["Field", "Value"], printsHeading: false, rows: rows, fit: output.tableFit)
    }
}
