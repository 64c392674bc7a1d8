import AlbumStore
import ArgumentParser
import Foundation

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show every field of one album.",
        discussion: "Example: albumstore show 42 --format json")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The album's id.") var id: Int64
    @OptionGroup var output: FormatOptions

    func run() throws {
        let albums = try store.openLibrary().albums
        guard let album = try albums.album(id: id) else { throw AlbumError.notFound(id: id) }
        let record = AlbumRecord(index: try albums.index(of: id), album: album)
        guard output.format == .table else {
            print(RecordPrinter.render([record], as: output.format), terminator: "")
            return
        }
        let labels = ["Index", "ID", "Title", "Artist", "Genre", "Year", "Cover URL", "External ID", "Added", "Updated"]
        print(RecordPrinter.table(header: ["Field", "Value"], rows: zip(labels, record.dataColumns).map { [$0, $1] })
            .split(separator: "\n").dropFirst().joined(separator: "\n"))
    }
}
