import AlbumStore
import ArgumentParser

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Change an album's fields (undoable).",
        discussion: "Example: albumstore edit 3 --year 1986 --genre ''   (an empty value clears a field)")

    @OptionGroup var store: StoreOptions
    @Argument(help: "The album's id.") var id: Int64
    @OptionGroup var fields: AlbumFields
    @OptionGroup var output: FormatOptions

    func validate() throws {
        guard !fields.isEmpty else { throw ValidationError("Give at least one field to change, e.g. --title.") }
    }

    func run() throws {
        let library = try store.openLibrary(.readWrite)
        let album = try library.albums.update(id: id) { try fields.apply(to: &$0) }
        let index = try library.albums.index(of: album.id)
        try AlbumPrinter.print([(index, album)], as: output.format)
    }
}
