import AlbumStore
import ArgumentParser

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change an album's fields (undoable).",
        discussion: """
            Surrounding spaces are trimmed from every value; an empty value clears an optional field.

            Example: albumstore edit 3 --year 1986 --genre ''
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The album's id.", completion: LibraryCompletion.albumID) var id: Int64
    @OptionGroup var fields: EditFields
    @OptionGroup var output: FormatOptions

    func validate() throws {
        guard !fields.isEmpty else { throw ValidationError("Give at least one field to change, e.g. --title.") }
    }

    func run() throws {
        let library = try store.openLibrary(.readWrite)
        let album = try library.albums.update(id: id) { fields.apply(to: &$0) }
        let index = try library.albums.index(of: album.id)
        try AlbumPrinter.print([(index, album)], as: output)
    }
}
