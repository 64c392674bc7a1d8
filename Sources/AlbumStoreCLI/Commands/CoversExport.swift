import AlbumStore
import ArgumentParser
import FoundationEssentials

struct CoversExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the covers of the albums a query matches (all by default) into a folder.",
        discussion: """
            Each file is named from the album id and a slug of artist and title \
            (42-david-bowie-low.jpg): letters, digits and hyphens only, so no title can make a \
            name outside the folder. Existing files of the same name are replaced.

            Examples:
              albumstore covers export --dir covers/
              albumstore covers export --dir jazz/ genre:jazz
            """)

    @OptionGroup var store: StoreOptions
    @Option(help: ArgumentHelp("The folder to write into (created if missing).", valueName: "dir")) var dir: String
    @OptionGroup var query: QueryTerms

    func run() throws {
        let library = try store.openLibrary(.readOnly)
        var albums: [Album] = []
        try library.albums.forEach(matching: try query.query()) { _, album in albums.append(album) }
        let report = try library.covers.export(albums, to: URL(fileURLWithPath: dir, isDirectory: true))
        inform("Exported \(Counted(report.files.count, "cover")) to \(dir); "
            + "\(Counted(report.albumsWithoutCover.count, "album", verb: "has", "have")) none.")
    }
}
