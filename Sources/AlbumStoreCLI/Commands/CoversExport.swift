import AlbumStore
import ArgumentParser
import Foundation

struct CoversExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the covers of the matching albums into a folder.",
        discussion: """
            Each file is named from the album id and a slug of artist and title \
            (42-david-bowie-low.jpg): letters, digits and hyphens only, so no title can make a \
            name outside the folder. Existing files of the same name are replaced.

            Examples:
              albumstore covers export --dir covers/
            """)

    @OptionGroup var store: StoreOptions
    @Option(help: ArgumentHelp("The folder to write into (created if missing).", valueName: "dir")) var dir: String
    @Argument(help: "Which albums (every album when omitted).") var query: [String] = []

    func run() throws {
        let library = try store.openLibrary(.readOnly)
        let ids = try CoversQuery.albumIDs(query, in: library).map(Set.init)
        var albums: [Album] = []
        try library.albums.forEach { _, album in
            if ids?.contains(album.id) ?? true { albums.append(album) }
        }
        let report = try library.covers.export(albums, to: URL(fileURLWithPath: dir, isDirectory: true))
        inform("Exported \(report.files.count) covers to \(dir); \(report.albumsWithoutCover.count) albums have none.")
    }
}
