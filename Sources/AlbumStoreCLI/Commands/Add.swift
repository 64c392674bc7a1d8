import AlbumStore
import ArgumentParser

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add an album at the end of the list, or at an index (undoable).",
        discussion: "Example: albumstore add --title Low --artist 'David Bowie' --genre Rock --year 1977 --at 0")

    @OptionGroup var store: StoreOptions
    @OptionGroup var fields: AlbumFields
    @Option(help: "Insert at this 0-based index (0 is the front) instead of appending.") var at: Int?
    @OptionGroup var output: FormatOptions

    func validate() throws {
        guard fields.title != nil, fields.artist != nil else { throw ValidationError("Give at least --title and --artist.") }
    }

    func run() throws {
        let library = try store.openLibrary(.create)
        var draft = AlbumDraft(title: "", artist: "")
        try fields.apply(to: &draft)
        let album = try at.map { try library.albums.insert(draft, at: $0) } ?? library.albums.append(draft)
        // Where it landed is known: no need to look its index up (which builds the order index).
        let index = try at ?? library.albums.count() - 1
        try AlbumPrinter.print([(index, album)], as: output.format)
    }
}
